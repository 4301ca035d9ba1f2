import { createFileStoreLeases, createMemoryFileStore, LeaseLostError } from '@x/store';
import { advanceUntilSettled, createManualClock } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, ConversationAlreadyRunningError } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';
import { nextGenerationFile } from './support/lease-generations.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

// The leases run on a manual clock: heartbeats and expiry happen only when the test advances it, so a loaded
// machine (a late timer, a slow step) can never make the running owner look dead to the other one.
const TTL = 300;
const STEP = TTL / 4;

describe('one owner per conversation with leases', () => {
  it('lets one of two instances (two processes) run the conversation; the other is told who runs it', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 1; echo done >> ran.txt' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'ok' } }] },
    ]);
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const { conversation: a } = await harness.conversation({
      store,
      leases: createFileStoreLeases(store, { owner: 'replica-a', ttlMs: TTL, clock }),
    });
    await a.sendMessage('run it once');
    const b = await Conversation.resume(a.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      store,
      leases: createFileStoreLeases(store, { owner: 'replica-b', ttlMs: TTL, clock }),
    });
    const runA = a.run();
    // A holds the lease as soon as its run started: wait for its first event of the run.
    while (a.state.execution_status !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
    // B watches A's heartbeat for a whole ttl before it may call A gone: A keeps beating, so B is refused.
    const refused = await advanceUntilSettled(clock, b.run(), STEP).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ConversationAlreadyRunningError);
    expect(refused).toMatchObject({ conversationId: a.id, owner: 'replica-a' });
    expect((await runA).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);

    // Once A's run ended, B takes the lease, folds A's events and has nothing left to do.
    expect((await advanceUntilSettled(clock, b.run(), STEP)).status).toBe('finished');
    // B's own run adds only its start and end records (`run` state updates) to what it folded of A's.
    expect(b.state.event_count).toBe(a.state.event_count + 2);
    expect(harness.server.requests).toHaveLength(2);
  });

  it('waits for the other owner with leaseWaitMs instead of failing', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 0.5' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'ok' } }] },
    ]);
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const { conversation: a } = await harness.conversation({
      store,
      leases: createFileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }),
    });
    await a.sendMessage('go');
    const b = await Conversation.resume(a.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      store,
      leases: createFileStoreLeases(store, { owner: 'b', ttlMs: TTL, clock }),
      // Clock time, which runs much faster than real time while the test advances it.
      leaseWaitMs: 1e12,
    });
    const runA = a.run();
    while (a.state.execution_status !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
    const [resultA, resultB] = await Promise.all([runA, advanceUntilSettled(clock, b.run(), STEP)]);
    expect(resultA.status).toBe('finished');
    expect(resultB.status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);
  });

  it('stops a run whose lease was taken over before it appends anything more', async () => {
    harness = await startHarness([{ toolCalls: [{ name: 'terminal', arguments: { command: 'sleep 1' } }] }]);
    const store = createMemoryFileStore();
    const leases = createFileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock: createManualClock() });
    const { conversation } = await harness.conversation({ store, leases });
    await conversation.sendMessage('go');
    const run = conversation.run().catch((caught: unknown) => caught);
    while (conversation.state.execution_status !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
    // Another owner takes the next generation behind this one's back (as after a lost heartbeat).
    await store.writeIfAbsent(await nextGenerationFile(store, conversation.directory), '{"owner":"b"}');
    const error = await run;
    expect(LeaseLostError.isInstance(error) || LeaseLostError.isInstance((error as Error).cause)).toBe(true);
    expect(harness.server.requests).toHaveLength(1);
  });
});
