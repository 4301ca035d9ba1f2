import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStoreLeases, createMemoryFileStore, type FileStore } from '@x/store';
import { advanceUntilSettled, createManualClock, type ManualClock } from '@x/store/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  ConversationAlreadyRunningError,
  type ConversationOptions,
  createOfflineLLM,
} from '../src/index.js';
import { stallingTool } from './support/stalling-tool.js';

// Two instances (two replicas) of one conversation shared through file-store leases on one store. The one that is
// idle holds no lease, yet writes state files: base_state.json when it closes or is messaged, x_budget.json when its
// budget is set. Those writes must never put an older state over the newer owner's.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-idle-state-writes-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const TTL = 60_000;

function options(store: FileStore, owner: string, agent: Agent, clock = createManualClock()): ConversationOptions {
  return {
    agent,
    workspace: dir,
    persistenceDir: dir,
    durability: 'none',
    store,
    leases: createFileStoreLeases(store, { owner, ttlMs: TTL, clock }),
  };
}

function answering(): Agent {
  return new Agent({ llm: createOfflineLLM({ script: () => ({ content: 'done' }) }), tools: [] });
}

/** How many events the base_state.json text covers. */
function covered(text: string): number {
  return JSON.parse(text).agent_state.x_state.event_count;
}

describe('an idle instance of a shared conversation', () => {
  it('folds what the newer owner appended before its close() writes base_state.json, so it never writes an older one', async () => {
    const store = createMemoryFileStore();
    const a = await Conversation.create(options(store, 'a', answering()));
    await a.sendMessage('first');
    await a.run();
    const b = await Conversation.resume(a.id, options(store, 'b', answering()));
    await b.sendMessage('second');
    await b.run();
    const path = `${b.directory}/base_state.json`;
    const byB = covered(await store.read(path));
    // A never saw B's message or its reply.
    expect(byB).toBeGreaterThan(a.state.event_count);

    await a.close();
    expect(covered(await store.read(path))).toBe(byB);
    expect(JSON.parse(await store.read(path))).toMatchObject({ execution_status: 'finished' });
    await b.close();
  });

  it('writes no base_state.json while another owner runs, and refuses setBudget with ConversationAlreadyRunningError', async () => {
    const store = createMemoryFileStore();
    const stall = stallingTool();
    let calls = 0;
    const stallsOnce = new Agent({
      llm: createOfflineLLM({
        script: () => (calls++ === 0 ? { toolCalls: [{ name: 'stall', arguments: {} }] } : { content: 'done' }),
      }),
      tools: [stall.tool],
    });
    // One clock: while A watches B's heartbeat (a file-store lease tells a live holder from a dead one so), B renews.
    const clock: ManualClock = createManualClock();
    const a = await Conversation.create(options(store, 'a', stallsOnce, clock));
    const b = await Conversation.resume(a.id, options(store, 'b', stallsOnce, clock));
    await b.sendMessage('go');
    const runOnB = b.run();
    await stall.started;
    const path = `${b.directory}/base_state.json`;
    const before = await store.read(path);

    // A's message lands in the log (B's run reads it); its checkpoint is B's to write.
    await advanceUntilSettled(clock, a.sendMessage('meanwhile'), TTL / 10);
    expect(a.state.event_count).toBeGreaterThan(covered(before));
    expect(await store.read(path)).toBe(before);
    const refused = await advanceUntilSettled(
      clock,
      a.setBudget(5).catch((caught: unknown) => caught),
      TTL / 10,
    );
    expect(ConversationAlreadyRunningError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ owner: expect.stringContaining('b') });
    expect(await store.exists(`${b.directory}/x_budget.json`)).toBe(false);

    stall.release();
    expect((await runOnB).status).toBe('finished');
    // Once B let the lease go, A's budget is written under it.
    await a.setBudget(5);
    expect(JSON.parse(await store.read(`${b.directory}/x_budget.json`))).toMatchObject({ max_usd: 5 });
    await b.close();
    await a.close();
  });
});
