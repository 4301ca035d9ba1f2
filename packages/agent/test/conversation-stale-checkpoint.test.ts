import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStoreLeases, createMemoryFileStore, LeaseLostError } from '@x/store';
import { advanceUntilSettled, createManualClock } from '@x/store/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, createOfflineLLM } from '../src/index.js';
import { stallingTool } from './support/stalling-tool.js';

// Two instances (two replicas) of one conversation on one store, with leases. A's run stalls in a tool with its
// lease's clock standing still (a paused process: no heartbeats, no deadline of its own); B watches A's heartbeat
// stand still for a ttl on its own clock, takes the conversation over and runs it to the end, writing base_state.
// A's checkpoints after that (asked for, and the one its run makes as it stops) must be refused, not overwrite it.

const TTL = 300;
const STEP = TTL / 4;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-stale-checkpoint-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('a stale owner of a conversation taken over by another replica', () => {
  it('is refused its base_state.json checkpoint (and budget write) with LeaseLostError; the new owner’s file survives', async () => {
    const store = createMemoryFileStore();
    const stall = stallingTool();
    const a = await Conversation.create({
      agent: stall.agent(),
      workspace: dir,
      persistenceDir: dir,
      durability: 'none',
      store,
      leases: createFileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock: createManualClock() }),
    });
    await a.sendMessage('go');
    const runA = a.run().catch((caught: unknown) => caught);
    await stall.started;

    const clockB = createManualClock();
    const b = await Conversation.resume(a.id, {
      agent: new Agent({ llm: createOfflineLLM({ script: () => ({ content: 'done' }) }), tools: [stall.tool] }),
      workspace: dir,
      persistenceDir: dir,
      durability: 'none',
      store,
      leases: createFileStoreLeases(store, { owner: 'b', ttlMs: TTL, clock: clockB }),
      leaseWaitMs: 1e12,
    });
    expect((await advanceUntilSettled(clockB, b.run(), STEP)).status).toBe('finished');
    const path = `${b.directory}/base_state.json`;
    const written = await store.read(path);
    expect(JSON.parse(written)).toMatchObject({ execution_status: 'finished' });

    // A, still inside its run (it holds what it believes is the lease), checkpoints: refused, nothing written.
    const refused = await a.checkpoint().catch((caught: unknown) => caught);
    expect(LeaseLostError.isInstance(refused)).toBe(true);
    // The run's generation (its creation's and its message's checkpoints took the lease before, briefly).
    expect((refused as LeaseLostError).generation).toBeGreaterThan(1);
    expect(await store.read(path)).toBe(written);
    // Its other state file written under the run's lease (x_budget.json) is fenced the same way.
    expect(LeaseLostError.isInstance(await a.setBudget(5).catch((caught: unknown) => caught))).toBe(true);
    expect(await store.exists(`${b.directory}/x_budget.json`)).toBe(false);

    // Let go, A's run stops on the lost lease; the checkpoint it makes on the way out is refused as well.
    stall.release();
    const error = await runA;
    expect(LeaseLostError.isInstance(error) || LeaseLostError.isInstance((error as Error).cause)).toBe(true);
    expect(await store.read(path)).toBe(written);
    await a.close().catch(() => undefined);
    await b.close();
  });
});
