import { afterEach, describe, expect, it } from 'vitest';
import {
  ActionNotPendingError,
  Conversation,
  ConversationClosedError,
  DecisionConflictError,
  readDecision,
} from '../src/index.js';
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

const resume = (id: string) =>
  Conversation.resume(id, {
    agent: harness.agent({ tools: [effectTool] }),
    workspace: harness.workspace,
    persistenceDir: harness.persistenceDir,
    durability: 'none',
  });

/** Waiting for a decision on `record_effect(pending)`, then closed: the id and the action's id. */
async function waitingThenClosed(script: ScriptedReply[]) {
  harness = await startHarness(script);
  const { conversation } = await harness.conversation({
    agent: harness.agent({ tools: [effectTool] }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
  });
  await conversation.sendMessage('go');
  expect((await conversation.run()).status).toBe('waiting_for_confirmation');
  const [action] = await conversation.pendingActions();
  await conversation.close();
  return { id: conversation.id, actionId: action!.id };
}

describe('a decision after a restart (request, close, resume, decide)', () => {
  it('approves: the action runs exactly once, across further restarts; a second approval is a typed error', async () => {
    const { id, actionId } = await waitingThenClosed([call('pending'), done]);
    const resumed = await resume(id);
    expect(resumed.state.execution_status).toBe('waiting_for_confirmation');
    await resumed.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'alice' });
    expect((await resumed.run()).status).toBe('finished');
    await resumed.close();
    const again = await resume(id);
    const other = again.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'bob' });
    await expect(other).rejects.toBeInstanceOf(DecisionConflictError);
    const unknown = again.decide([{ action_id: 'not-an-action', decision: { kind: 'approve' } }], {
      principal: 'alice',
    });
    await expect(unknown).rejects.toBeInstanceOf(ActionNotPendingError);
    expect((await again.run()).status).toBe('finished');
    expect(await effects()).toEqual(['pending']);
    const answers = (await allEvents(again)).filter(
      (event) => event.kind === 'ObservationEvent' && event.action_id === actionId,
    );
    expect(answers).toHaveLength(1);
    await again.close();
  });

  it('rejects: the reference UserRejectObservation with the reason, the tool never runs', async () => {
    const { id, actionId } = await waitingThenClosed([call('pending'), done]);
    const resumed = await resume(id);
    await resumed.rejectPendingActions('not after the restart', { principal: 'alice' });
    expect(resumed.state.execution_status).toBe('idle');
    expect((await resumed.run()).status).toBe('finished');
    const rejected = (await allEvents(resumed)).filter((event) => event.kind === 'UserRejectObservation');
    expect(rejected).toMatchObject([
      { kind: 'UserRejectObservation', action_id: actionId, rejection_reason: 'not after the restart' },
    ]);
    expect(await readDecision(resumed.store, resumed.directory, actionId)).toMatchObject({
      principal: 'alice',
      decision: { kind: 'deny', reason: 'not after the restart' },
    });
    expect(await effects()).toEqual([]);
    await resumed.close();
  });

  it('approved before the restart, run after it: runs once, and the approval is not asked again', async () => {
    const { id, actionId } = await waitingThenClosed([call('pending'), done]);
    const first = await resume(id);
    await first.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'alice' });
    await first.close();
    const second = await resume(id);
    expect(second.state.execution_status).toBe('waiting_for_confirmation');
    // The same approval again (a client retrying after the restart) is the same decision, not a second one.
    await second.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'alice' });
    expect((await second.run()).status).toBe('finished');
    expect(await readDecision(second.store, second.directory, actionId)).toMatchObject({ principal: 'alice' });
    expect(await effects()).toEqual(['pending']);
    await second.close();
  });

  it('a decision on a closed conversation is ConversationClosedError, nothing recorded', async () => {
    const { id, actionId } = await waitingThenClosed([call('pending'), done]);
    const resumed = await resume(id);
    await resumed.close();
    const late = resumed.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'alice' });
    await expect(late).rejects.toBeInstanceOf(ConversationClosedError);
    expect(await readDecision(resumed.store, resumed.directory, actionId)).toBeUndefined();
  });
});
