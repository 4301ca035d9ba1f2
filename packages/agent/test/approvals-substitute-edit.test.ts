// What a substituted result tells the model (an error only when the decision says so), and an edit of a call whose
// tool the agent no longer has: refused as a decision, not a TypeError.
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, decisionRecordPath, InvalidDecisionError, readDecision } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(() => harness?.close());

const call: ScriptedReply = { toolCalls: [{ name: 'record_effect', arguments: { label: 'asked' } }] };
const done: ScriptedReply = { content: 'Done.' };

async function waitingForDecision() {
  harness = await startHarness([call, done]);
  const made = await harness.conversation({
    agent: harness.agent({ tools: [effectTool] }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
  });
  await made.conversation.sendMessage('go');
  expect((await made.conversation.run()).status).toBe('waiting_for_confirmation');
  const [action] = await made.conversation.pendingActions();
  return { ...made, action: action! };
}

const observationOf = (events: readonly AnyEvent[]) =>
  events.find((event) => event.kind === 'ObservationEvent') as { observation: Record<string, unknown> } | undefined;

describe('a substituted result', () => {
  it.each([
    ['without is_error is no error', {}, false],
    ['with is_error true is an error', { is_error: true }, true],
  ] as const)('%s', async (_what, flag, isError) => {
    const { conversation, events, action } = await waitingForDecision();
    await conversation.decide(
      [{ action_id: action.id, decision: { kind: 'substitute', result: { content: 'it failed', ...flag } } }],
      { principal: 'client' },
    );
    expect(observationOf(events)?.observation).toMatchObject({
      is_error: isError,
      content: [{ type: 'text', text: 'it failed' }],
    });
  });
});

describe('edited arguments for a call whose tool the agent no longer has', () => {
  it('are refused with InvalidDecisionError naming the tool, nothing recorded', async () => {
    const { conversation, action } = await waitingForDecision();
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent({ tools: [] }),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      durability: 'none',
    });
    const attempt = resumed.decide(
      [{ action_id: action.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }],
      { principal: 'alice' },
    );
    await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
    await expect(attempt).rejects.toThrow(/tool 'record_effect' is not available/);
    expect(await resumed.store.exists(decisionRecordPath(resumed.directory, action.id))).toBe(false);
    await resumed.close();
  });
});

describe('edited arguments for the only call waiting', () => {
  it('leave the conversation waiting (not running) with the edited call pending until the next run', async () => {
    const { conversation, action } = await waitingForDecision();
    const [record] = await conversation.decide(
      [{ action_id: action.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }],
      { principal: 'alice' },
    );
    // The edited call's ActionEvent alone would fold to `running`, though no run is going on.
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    const pending = await conversation.pendingActions();
    expect(pending.map((event) => [event.id, event.action])).toEqual([
      [record!.replacement_action_id, { label: 'edited', kind: 'RecordEffectAction' }],
    ]);
    // The edited call is approved by whoever edited it (not implicitly by the next run), and the edit is finished:
    // no outbox entry is left for the next run to redo.
    expect(
      await readDecision(conversation.store, conversation.directory, record!.replacement_action_id!),
    ).toMatchObject({
      principal: 'alice',
      decision: { kind: 'approve' },
      edited_from: action.id,
    });
    const outbox = `${conversation.directory}/events/.decisions/edits`;
    expect(await conversation.store.list(outbox).catch(() => [])).toEqual([]);
    expect((await conversation.run()).status).toBe('finished');
  });
});
