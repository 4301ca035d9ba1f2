// `Conversation.decide` on a conversation shared between processes (caller's `leases`): decided under the lease on
// the log's state, a late conflicting decision refused at once, a retry a no-op. Leases run on a manual clock, so
// a lease wait ends only when the test advances it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStoreLeases, createMemoryFileStore, type FileStore, type Leases } from '@x/store';
import { advanceUntilSettled, createManualClock, type ManualClock } from '@x/store/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  ConversationAlreadyRunningError,
  ConversationClosedError,
  createOfflineLLM,
  DecisionConflictError,
  decisionRecordPath,
  readDecision,
} from '../src/index.js';
import { effectTool } from './support/approval-tools.js';

/** A live holder renews every third of it as the clock advances; a contender watches one before giving up. */
const TTL = 300;

let dir: string;
let store: FileStore;
let clock: ManualClock;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-decide-shared-'));
  store = createMemoryFileStore();
  clock = createManualClock();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** Leases of `owner` that tell `onAcquire` each time the conversation asks for the lease. */
function leasesOf(owner: string, onAcquire: () => void = () => undefined): Leases {
  const inner = createFileStoreLeases(store, { owner, ttlMs: TTL, clock });
  return {
    owner,
    acquire: (key, options) => {
      onAcquire();
      return inner.acquire(key, options);
    },
  };
}

function open(id: string | undefined, options: { leases?: Leases; leaseWaitMs?: number }) {
  const common = {
    agent: new Agent({
      tools: [effectTool],
      llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'record_effect', arguments: { label: 'asked' } }] }] }),
    }),
    workspace: dir,
    persistenceDir: dir,
    durability: 'none' as const,
    store,
    confirmationPolicy: { kind: 'AlwaysConfirm' as const },
    ...options,
  };
  return id === undefined ? Conversation.create(common) : Conversation.resume(id, common);
}

/** A shared conversation whose one call waits for a decision, and that call. */
async function waiting(options: { leaseWaitMs?: number; onAcquire?: () => void } = {}) {
  const conversation = await open(undefined, {
    leases: leasesOf('a', options.onAcquire),
    ...(options.leaseWaitMs === undefined ? {} : { leaseWaitMs: options.leaseWaitMs }),
  });
  await conversation.sendMessage('go');
  expect((await conversation.run()).status).toBe('waiting_for_confirmation');
  const [action] = await conversation.pendingActions();
  return { conversation, actionId: action!.id };
}

// Each test settles in well under a second; a decision that waits for a lease the clock never frees fails in 20 s.
describe('decide on a shared conversation', { timeout: 20_000 }, () => {
  it('takes a retry of an edit with its keys in another order as the same decision, and lets the lease go', async () => {
    const { conversation, actionId } = await waiting();
    const edit = { kind: 'approve' as const, arguments: { label: 'edited', count: 2 } };
    const records = await conversation.decide([{ action_id: actionId, decision: edit }], { principal: 'alice' });
    expect(records).toMatchObject([{ action_id: actionId, principal: 'alice', decision: edit }]);
    // Released: another owner takes the lease at once.
    await (await leasesOf('b').acquire(conversation.directory, { waitMs: 0 })).release();

    const retried = await conversation.decide(
      [{ action_id: actionId, decision: { kind: 'approve', arguments: { count: 2, label: 'edited' } } }],
      { principal: 'alice' },
    );
    expect(retried).toEqual([]);
    await conversation.close();
  });

  it('decides on the log as it is, also from an object opened before the call was made', async () => {
    const early = await open(undefined, { leases: leasesOf('early') });
    await early.sendMessage('go');
    const other = await open(early.id, { leases: leasesOf('other') });
    expect((await early.run()).status).toBe('waiting_for_confirmation');
    const [action] = await early.pendingActions();

    const records = await other.decide([{ action_id: action!.id, decision: { kind: 'deny', reason: 'no' } }], {
      principal: 'bob',
    });
    expect(records).toMatchObject([{ action_id: action!.id, decision: { kind: 'deny' } }]);
    expect(other.state.execution_status).toBe('idle');
    // Persisted at once, not only when the object is closed.
    const base = JSON.parse(await store.read(`${other.directory}/base_state.json`)) as { execution_status?: string };
    expect(base.execution_status).toBe('idle');
    // Checkpointed: a third object opened now sees the decision's outcome.
    await other.close();
    const reopened = await open(early.id, { leases: leasesOf('c') });
    expect(reopened.state.execution_status).toBe('idle');
    expect(await reopened.pendingActions()).toEqual([]);
    await reopened.close();
    await early.close();
  });

  it('refuses a conflicting decision at once, without waiting for the lease a run holds', async () => {
    const { conversation, actionId } = await waiting({ leaseWaitMs: 60_000 });
    await conversation.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'alice' });
    const held = await leasesOf('runner').acquire(conversation.directory, { waitMs: 0 });
    // The clock never moves: only a decision refused before the lease wait settles.
    for (const principal of ['bob', 'alice']) {
      await expect(
        conversation.decide([{ action_id: actionId, decision: { kind: 'deny', reason: 'no' } }], { principal }),
      ).rejects.toBeInstanceOf(DecisionConflictError);
    }
    await held.release();
    await conversation.close();
  });

  it('gives up after watching the holder for one ttl with leaseWaitMs 0, not after the default wait', async () => {
    const { conversation, actionId } = await waiting({ leaseWaitMs: 0 });
    const held = await leasesOf('runner').acquire(conversation.directory, { waitMs: 0 });
    const started = clock.now();
    const deciding = conversation.decide([{ action_id: actionId, decision: { kind: 'approve' } }], {
      principal: 'alice',
    });
    await expect(advanceUntilSettled(clock, deciding, TTL / 6)).rejects.toBeInstanceOf(ConversationAlreadyRunningError);
    expect(clock.now() - started).toBeLessThan(10 * TTL);
    await held.release();
    await conversation.close();
  });

  it('tells the loser of a decision recorded while it waited for the lease of the conflict, not of the run', async () => {
    let acquired!: () => void;
    const asked = new Promise<void>((resolve) => {
      acquired = resolve;
    });
    let armed = false;
    const { conversation, actionId } = await waiting({
      leaseWaitMs: 1_000,
      // The run's own acquisitions come before: only the decision's is awaited.
      onAcquire: () => {
        if (armed) acquired();
      },
    });
    armed = true;
    const held = await leasesOf('winner').acquire(conversation.directory, { waitMs: 0 });
    const losing = conversation.decide([{ action_id: actionId, decision: { kind: 'deny', reason: 'no' } }], {
      principal: 'bob',
    });
    losing.catch(() => undefined);
    await asked;
    // Another replica's decision lands while this one waits for the lease.
    await store.write(
      decisionRecordPath(conversation.directory, actionId),
      `${JSON.stringify({
        action_id: actionId,
        tool_name: 'record_effect',
        tool_call_id: 'call',
        decision: { kind: 'approve' },
        principal: 'alice',
        decided_at: new Date(0).toISOString(),
      })}\n`,
    );
    await expect(advanceUntilSettled(clock, losing, TTL / 6)).rejects.toBeInstanceOf(DecisionConflictError);
    await held.release();
    await conversation.close();
  });

  it('is refused on a closed conversation, with no decision recorded (shared or not)', async () => {
    for (const leases of [leasesOf('a'), undefined]) {
      const conversation = await open(undefined, leases === undefined ? {} : { leases });
      await conversation.sendMessage('go');
      expect((await conversation.run()).status).toBe('waiting_for_confirmation');
      const [action] = await conversation.pendingActions();
      await conversation.close();
      await expect(
        conversation.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'alice' }),
      ).rejects.toBeInstanceOf(ConversationClosedError);
      expect(await readDecision(store, conversation.directory, action!.id)).toBeUndefined();
    }
  });
});
