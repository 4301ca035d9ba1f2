import { afterEach, describe, expect, it } from 'vitest';
import { readDecision } from '../src/index.js';
import { allEvents, DONE_REPLY, effectTool, readEffects, recordEffectCall } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const call = recordEffectCall;
const done = DONE_REPLY;

const effects = () => readEffects(harness.workspace);

describe('moving HEAD onto a branch whose action waits for confirmation', () => {
  it('waits again with it (never runs it undecided); moving off it leaves nothing waiting', async () => {
    harness = await startHarness([call('pending'), done]);
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [effectTool] }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [action] = await conversation.pendingActions();
    const message = (await allEvents(conversation)).find(
      (event) => event.kind === 'MessageEvent' && event.source === 'user',
    )!;
    // Off the action's branch: nothing is pending there, so nothing waits.
    await conversation.navigateTo(message.id);
    expect(await conversation.pendingActions()).toEqual([]);
    expect(conversation.state.execution_status).toBe('idle');
    expect((await conversation.run()).status).toBe('finished');
    // Back onto it: the action waits for a decision again (the status was `finished`: the next step ran it undecided).
    await conversation.navigateTo(action!.id);
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect(await effects()).toEqual([]);
    await conversation.rejectPendingActions('not on this branch either', { principal: 'alice' });
    expect(await effects()).toEqual([]);
    expect(await readDecision(conversation.store, conversation.directory, action!.id)).toMatchObject({
      principal: 'alice',
      decision: { kind: 'deny' },
    });
  });
});

describe('editing an action waiting for confirmation (editEvent: a copy on a new branch)', () => {
  it('leaves the copy waiting for a decision too: it never runs undecided', async () => {
    harness = await startHarness([call('pending'), done]);
    const { conversation } = await harness.conversation({
      agent: harness.agent({ tools: [effectTool] }),
      confirmationPolicy: { kind: 'AlwaysConfirm' },
    });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    const [action] = await conversation.pendingActions();
    const copy = await conversation.editEvent(action!.id, {
      action: { ...(action!.action as Record<string, unknown>), label: 'edited' },
    });
    expect((await conversation.pendingActions()).map((pending) => pending.id)).toEqual([copy.id]);
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    await conversation.rejectPendingActions('not the edited one either', { principal: 'alice' });
    expect(await effects()).toEqual([]);
    expect(await readDecision(conversation.store, conversation.directory, copy.id)).toMatchObject({
      principal: 'alice',
    });
  });
});
