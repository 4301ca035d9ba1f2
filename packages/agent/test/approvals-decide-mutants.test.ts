import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { DecisionRecordDamagedError, decisionRecordPath, InvalidDecisionError, readDecision } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(() => harness?.close());

const call: ScriptedReply = { toolCalls: [{ name: 'record_effect', arguments: { label: 'asked' } }] };
const done: ScriptedReply = { content: 'Done.' };

async function effects(): Promise<string[]> {
  try {
    return (await readFile(join(harness.workspace, 'effects.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** A conversation whose one call waits for a decision, the events it logged, and that call. */
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

/** The events answering one call: a tool call must have exactly one. */
function answersTo(events: readonly AnyEvent[], actionId: string): AnyEvent[] {
  return events.filter(
    (event) =>
      (event.kind === 'UserRejectObservation' || event.kind === 'ObservationEvent') && event.action_id === actionId,
  );
}

describe('one action named twice in one request', () => {
  it.each([
    ['deny', { kind: 'deny', reason: 'no' }],
    ['substitute', { kind: 'substitute', result: { content: 'pretend it ran' } }],
  ] as const)('with the same %s decision: decided once, answered once in the log', async (_kind, decision) => {
    const { conversation, events, action } = await waitingForDecision();
    const records = await conversation.decide(
      [
        { action_id: action.id, decision },
        { action_id: action.id, decision },
      ],
      { principal: 'alice' },
    );
    expect(records.map((record) => record.action_id)).toEqual([action.id]);
    expect(answersTo(events, action.id)).toHaveLength(1);
    expect(conversation.state.execution_status).toBe('idle');
    expect((await conversation.run()).status).toBe('finished');
    expect(answersTo(events, action.id)).toHaveLength(1);
    expect(await effects()).toEqual([]);
  });

  it('that is no decision: refused with one readable line naming the field', async () => {
    const { conversation, action } = await waitingForDecision();
    const attempt = conversation.decide([{ action_id: action.id, decision: { kind: 'maybe' } } as never], {
      principal: 'alice',
    });
    await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
    await expect(attempt).rejects.toThrow(/not a decision: decision(\.kind)?: [^\n{[]+$/);
    expect((await conversation.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
  });

  it('an approval with a reason: refused saying only a denial carries one, nothing recorded', async () => {
    const { conversation, events, action } = await waitingForDecision();
    for (const reason of ['looks safe', '']) {
      const attempt = conversation.decide([{ action_id: action.id, decision: { kind: 'approve', reason } } as never], {
        principal: 'alice',
      });
      await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
      await expect(attempt).rejects.toThrow(
        `Decision for action ${action.id}: an approval carries no reason (only a denial's reason is recorded`,
      );
    }
    // Edited arguments do not make room for one either.
    const edited = conversation.decide(
      [{ action_id: action.id, decision: { kind: 'approve', arguments: { label: 'x' }, reason: 'ok' } } as never],
      { principal: 'alice' },
    );
    await expect(edited).rejects.toThrow(/an approval carries no reason/);
    expect(await conversation.store.exists(decisionRecordPath(conversation.directory, action.id))).toBe(false);
    expect(answersTo(events, action.id)).toEqual([]);
    // Another stray field of an approval is refused as no decision, naming it.
    const stray = conversation.decide([{ action_id: action.id, decision: { kind: 'approve', note: 'ok' } } as never], {
      principal: 'alice',
    });
    await expect(stray).rejects.toThrow(/not a decision: .*note/);
    await conversation.decide([{ action_id: action.id, decision: { kind: 'approve' } }], { principal: 'alice' });
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['asked']);
  });

  it('over a damaged decision record: a typed error naming the record, nothing run', async () => {
    const { conversation, action } = await waitingForDecision();
    const path = decisionRecordPath(conversation.directory, action.id);
    for (const damaged of ['{not json', '{"action_id": 5}\n']) {
      await conversation.store.write(path, damaged);
      const attempt = conversation.decide([{ action_id: action.id, decision: { kind: 'approve' } }], {
        principal: 'alice',
      });
      await expect(attempt).rejects.toBeInstanceOf(DecisionRecordDamagedError);
      await expect(attempt).rejects.toThrow(`Decision record ${conversation.store.describe(path)} is damaged: `);
      await expect(attempt).rejects.toMatchObject({ code: 'decision_record_damaged' });
    }
    expect(await effects()).toEqual([]);
  });

  it('with two different decisions: refused before anything is recorded, the action still waiting', async () => {
    const { conversation, events, action } = await waitingForDecision();
    const attempt = conversation.decide(
      [
        { action_id: action.id, decision: { kind: 'deny', reason: 'no' } },
        { action_id: action.id, decision: { kind: 'approve' } },
      ],
      { principal: 'alice' },
    );
    await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
    await expect(attempt).rejects.toThrow(/two different decisions/);
    expect(await conversation.store.exists(decisionRecordPath(conversation.directory, action.id))).toBe(false);
    expect(answersTo(events, action.id)).toEqual([]);
    expect((await conversation.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
    await conversation.decide([{ action_id: action.id, decision: { kind: 'approve' } }], { principal: 'alice' });
    expect((await readDecision(conversation.store, conversation.directory, action.id))?.decision.kind).toBe('approve');
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['asked']);
  });

  it.each([
    ['an entry with no decision', { action_id: 'not-an-action' }],
    ['an empty entry', null],
  ])('with edited arguments followed by %s: refused as no decision, nothing recorded', async (_what, malformed) => {
    const { conversation, events, action } = await waitingForDecision();
    const attempt = conversation.decide(
      [{ action_id: action.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }, malformed as never],
      { principal: 'alice' },
    );
    await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
    await expect(attempt).rejects.toThrow(/not a decision: /);
    expect(await conversation.store.exists(decisionRecordPath(conversation.directory, action.id))).toBe(false);
    expect(answersTo(events, action.id)).toEqual([]);
    expect((await conversation.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);
  });
});
