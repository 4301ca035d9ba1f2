import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, IMPLICIT_RUN_PRINCIPAL, readDecision } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { allEvents, DONE_REPLY, effectTool, readEffects, recordEffectCall } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const call = recordEffectCall;
const done = DONE_REPLY;

const effects = () => readEffects(harness.workspace);

/** A conversation under AlwaysConfirm whose model asked for `record_effect(pending)`: waiting, nothing run. */
async function waiting(script: ScriptedReply[]) {
  harness = await startHarness(script);
  const { conversation } = await harness.conversation({
    agent: harness.agent({ tools: [effectTool] }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
  });
  await conversation.sendMessage('go');
  expect((await conversation.run()).status).toBe('waiting_for_confirmation');
  const [action] = await conversation.pendingActions();
  return { conversation, action: action! };
}

describe('a fork taken while an action waits for confirmation', () => {
  it('carries the action still waiting, in its own queue: a denial in the fork never runs it, the source still waits', async () => {
    const { conversation, action } = await waiting([call('pending'), done, done]);
    const fork = await conversation.fork();
    expect(fork.state.execution_status).toBe('waiting_for_confirmation');
    expect((await fork.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
    // The fork's queue is its own: nothing decided there, nothing decided in the source by forking.
    expect(await readDecision(fork.store, fork.directory, action.id)).toBeUndefined();
    await fork.decide([{ action_id: action.id, decision: { kind: 'deny', reason: 'not in the fork' } }], {
      principal: 'alice',
    });
    expect((await fork.run()).status).toBe('finished');
    expect(await effects()).toEqual([]);
    const rejected = (await allEvents(fork)).filter((event) => event.kind === 'UserRejectObservation');
    expect(rejected).toMatchObject([{ action_id: action.id, rejection_reason: 'not in the fork' }]);
    // The source still waits for its own decision, and runs the action once when it gets one.
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect(await readDecision(conversation.store, conversation.directory, action.id)).toBeUndefined();
    await conversation.decide([{ action_id: action.id, decision: { kind: 'approve' } }], { principal: 'bob' });
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['pending']);
  });

  it('waits at the action itself, and is idle at the event before it; a fork of the waiting fork waits too', async () => {
    const { conversation, action } = await waiting([call('pending'), done]);
    const events = await allEvents(conversation);
    const before = events[events.findIndex((event) => event.id === action.id) - 1]!;
    const atAction = await conversation.fork({ fromEventId: action.id });
    expect(atAction.state.execution_status).toBe('waiting_for_confirmation');
    expect((await atAction.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
    const atBefore = await conversation.fork({ fromEventId: before.id });
    expect(atBefore.state.execution_status).toBe('idle');
    expect(await atBefore.pendingActions()).toEqual([]);
    const second = await atAction.fork();
    expect(second.state.execution_status).toBe('waiting_for_confirmation');
    expect((await second.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
    // Running a waiting conversation is the reference's way to approve: recorded as the run's decision, in that
    // fork alone, before the action runs once.
    expect((await second.run()).status).toBe('finished');
    expect(await readDecision(second.store, second.directory, action.id)).toMatchObject({
      principal: IMPLICIT_RUN_PRINCIPAL,
      decision: { kind: 'approve' },
    });
    expect(await readDecision(atAction.store, atAction.directory, action.id)).toBeUndefined();
    expect(await effects()).toEqual(['pending']);
  });

  it('does not inherit an approval the source recorded but has not run yet', async () => {
    const { conversation, action } = await waiting([call('pending'), done]);
    await conversation.decide([{ action_id: action.id, decision: { kind: 'approve' } }], { principal: 'alice' });
    const fork = await conversation.fork();
    expect(fork.state.execution_status).toBe('waiting_for_confirmation');
    expect(await readDecision(fork.store, fork.directory, action.id)).toBeUndefined();
    await fork.rejectPendingActions('the fork says no', { principal: 'bob' });
    expect((await fork.run()).status).toBe('finished');
    expect(await effects()).toEqual([]);
  });

  it('keeps the fork waiting after a resume of the fork', async () => {
    const { conversation, action } = await waiting([call('pending'), done]);
    const fork = await conversation.fork();
    await fork.close();
    const resumed = await Conversation.resume(fork.id, {
      agent: harness.agent({ tools: [effectTool] }),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      durability: 'none',
    });
    expect(resumed.state.execution_status).toBe('waiting_for_confirmation');
    expect((await resumed.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
    await resumed.close();
  });
});
