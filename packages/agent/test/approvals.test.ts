import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ActionNotPendingError,
  type ApprovalRules,
  approvalRulesSchema,
  Conversation,
  DecisionConflictError,
  decisionRecordPath,
  EDITED_ARGUMENTS_REASON,
  InvalidDecisionError,
  readDecision,
} from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
  // A test without a harness (the schema test) must not close the previous one again.
  harness = undefined as never;
});

const call = (label: string, id?: string): ScriptedReply => ({
  toolCalls: [{ name: 'record_effect', arguments: { label }, ...(id === undefined ? {} : { id }) }],
});
const twoCalls: ScriptedReply = {
  toolCalls: [
    { name: 'record_effect', arguments: { label: 'first' } },
    { name: 'record_effect', arguments: { label: 'second' } },
  ],
};
const done: ScriptedReply = { content: 'Done.' };
const fixedClock = () => new Date('2026-01-02T03:04:05.000Z');

function ofKind<K extends AnyEvent['kind']>(events: readonly AnyEvent[], kind: K): Extract<AnyEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<AnyEvent, { kind: K }> => event.kind === kind);
}

async function effects(): Promise<string[]> {
  try {
    return (await readFile(join(harness.workspace, 'effects.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function waiting(script: ScriptedReply[], options: { approvalRules?: ApprovalRules } = {}) {
  harness = await startHarness(script);
  const made = await harness.conversation({
    agent: harness.agent({ tools: [effectTool] }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
    ...options,
  });
  await made.conversation.sendMessage('go');
  const result = await made.conversation.run();
  return { ...made, result };
}

describe('decisions per pending action', () => {
  it('approves one action and denies another with a reason the model sees; records who and when', async () => {
    const { conversation, events, result } = await waiting([twoCalls, done]);
    expect(result.status).toBe('waiting_for_confirmation');
    const [first, second] = await conversation.pendingActions();
    const records = await conversation.decide(
      [
        { action_id: first!.id, decision: { kind: 'approve' } },
        { action_id: second!.id, decision: { kind: 'deny', reason: 'not the second one' } },
      ],
      { principal: 'api-key:abc123', now: fixedClock },
    );
    expect(records.map((record) => [record.decision.kind, record.principal, record.decided_at])).toEqual([
      ['approve', 'api-key:abc123', '2026-01-02T03:04:05.000Z'],
      ['deny', 'api-key:abc123', '2026-01-02T03:04:05.000Z'],
    ]);
    expect(await readDecision(conversation.store, conversation.directory, second!.id)).toMatchObject({
      principal: 'api-key:abc123',
      decision: { kind: 'deny', reason: 'not the second one' },
    });
    expect(ofKind(events, 'UserRejectObservation')[0]).toMatchObject({
      action_id: second!.id,
      rejection_reason: 'not the second one',
    });
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['first']);
    expect(JSON.stringify(harness.server.requests[1]?.messages)).toContain('not the second one');
  });

  it('runs edited arguments as a new ActionEvent the log shows, after a rejection of the original call', async () => {
    const { conversation, events } = await waiting([call('original'), done]);
    const [action] = await conversation.pendingActions();
    const [record] = await conversation.decide(
      [{ action_id: action!.id, decision: { kind: 'approve', arguments: { label: 'edited' } } }],
      { principal: 'alice' },
    );
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['edited']);
    const actions = ofKind(events, 'ActionEvent');
    const replacement = actions.find((event) => event.id === record!.replacement_action_id);
    expect(replacement?.action).toMatchObject({ label: 'edited' });
    expect(ofKind(events, 'UserRejectObservation')[0]).toMatchObject({
      action_id: action!.id,
      rejection_reason: EDITED_ARGUMENTS_REASON,
    });
    expect(ofKind(events, 'ObservationEvent').map((event) => event.action_id)).toEqual([replacement!.id]);
    expect(await readDecision(conversation.store, conversation.directory, replacement!.id)).toMatchObject({
      principal: 'alice',
      edited_from: action!.id,
    });
  });

  it('refuses edited arguments the tool schema rejects: typed error, nothing recorded, the run unharmed', async () => {
    const { conversation } = await waiting([call('original'), done]);
    const [action] = await conversation.pendingActions();
    const attempt = conversation.decide(
      [{ action_id: action!.id, decision: { kind: 'approve', arguments: { label: 42 } } }],
      { principal: 'alice' },
    );
    await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
    await expect(attempt).rejects.toThrow(/label/);
    expect(await conversation.store.exists(decisionRecordPath(conversation.directory, action!.id))).toBe(false);
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['original']);
  });

  it('edits a call of a parallel batch only once the other calls of the batch are answered (they come first in the log)', async () => {
    const { conversation, events } = await waiting([twoCalls, done]);
    const [first, second] = await conversation.pendingActions();
    const alone = conversation.decide(
      [{ action_id: first!.id, decision: { kind: 'approve', arguments: { label: 'first-edited' } } }],
      { principal: 'alice' },
    );
    await expect(alone).rejects.toBeInstanceOf(InvalidDecisionError);
    await conversation.decide(
      [
        { action_id: first!.id, decision: { kind: 'approve', arguments: { label: 'first-edited' } } },
        { action_id: second!.id, decision: { kind: 'deny', reason: 'skip it' } },
      ],
      { principal: 'alice' },
    );
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['first-edited']);
    const kinds = events.filter((event) => event.kind !== 'ConversationStateUpdateEvent').map((event) => event.kind);
    const afterBatch = kinds.slice(kinds.lastIndexOf('ActionEvent') - 3);
    // The model's two calls, the denial, the edited call's answer, then the edited call and its result.
    expect(afterBatch.slice(0, 6)).toEqual([
      'ActionEvent',
      'UserRejectObservation',
      'UserRejectObservation',
      'ActionEvent',
      'ObservationEvent',
      'MessageEvent',
    ]);
  });

  it('applies a denial whose answer never reached the log (its process died after the record): the action never runs', async () => {
    const { conversation, events } = await waiting([call('denied'), done]);
    const [action] = await conversation.pendingActions();
    // What `decide` leaves when its process dies between the record and the UserRejectObservation.
    await conversation.store.write(
      decisionRecordPath(conversation.directory, action!.id),
      JSON.stringify({
        action_id: action!.id,
        tool_name: action!.tool_name,
        tool_call_id: action!.tool_call_id,
        decision: { kind: 'deny', reason: 'denied before the crash' },
        principal: 'tester',
        decided_at: fixedClock().toISOString(),
      }),
    );
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual([]);
    expect(ofKind(events, 'UserRejectObservation')).toMatchObject([
      { action_id: action!.id, rejection_reason: 'denied before the crash' },
    ]);
  });

  it('substitutes a result without running the tool', async () => {
    const { conversation, events } = await waiting([call('never'), done]);
    const [action] = await conversation.pendingActions();
    await conversation.decide(
      [{ action_id: action!.id, decision: { kind: 'substitute', result: { content: 'pretend it ran' } } }],
      { principal: 'bob' },
    );
    expect(conversation.state.execution_status).toBe('idle');
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual([]);
    const observation = ofKind(events, 'ObservationEvent')[0];
    expect(observation).toMatchObject({ action_id: action!.id, observation: { kind: 'RecordEffectObservation' } });
    expect(JSON.stringify(harness.server.requests[1]?.messages)).toContain('pretend it ran');
  });

  it('refuses a decision for an action that already ran, and a different second decision', async () => {
    const { conversation } = await waiting([call('once'), done]);
    const [action] = await conversation.pendingActions();
    await conversation.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'alice' });
    // The same decision again is a retry, not a conflict.
    await conversation.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'alice' });
    const conflict = conversation.decide([{ action_id: action!.id, decision: { kind: 'deny', reason: 'no' } }], {
      principal: 'bob',
    });
    await expect(conflict).rejects.toBeInstanceOf(DecisionConflictError);
    await expect(conflict).rejects.toThrow(/approve by 'alice'/);
    expect((await conversation.run()).status).toBe('finished');
    const late = conversation.decide(
      [{ action_id: 'no-such-action', decision: { kind: 'substitute', result: { content: 'x' } } }],
      { principal: 'alice' },
    );
    await expect(late).rejects.toBeInstanceOf(ActionNotPendingError);
    expect(await effects()).toEqual(['once']);
  });

  it('two Conversation objects on one store decide at once: exactly one wins, the other gets DecisionConflictError', async () => {
    const { conversation } = await waiting([call('contested'), done]);
    const [action] = await conversation.pendingActions();
    await conversation.close();
    const open = () =>
      Conversation.resume(conversation.id, {
        agent: harness.agent({ tools: [effectTool] }),
        workspace: harness.workspace,
        persistenceDir: harness.persistenceDir,
        durability: 'none',
        leaseWaitMs: 60_000,
      });
    const [one, two] = await Promise.all([open(), open()]);
    const outcomes = await Promise.allSettled([
      one.decide([{ action_id: action!.id, decision: { kind: 'approve' } }], { principal: 'alice' }),
      two.decide([{ action_id: action!.id, decision: { kind: 'deny', reason: 'no' } }], { principal: 'bob' }),
    ]);
    const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(DecisionConflictError);
    await one.close();
    await two.close();
    const reopened = await open();
    const events: AnyEvent[] = [];
    for await (const event of reopened.events()) events.push(event);
    // Exactly one answer or none (approved, still pending): never both an approval's run and a denial.
    expect(ofKind(events, 'UserRejectObservation').length).toBeLessThanOrEqual(1);
    await reopened.run();
    const after: AnyEvent[] = [];
    for await (const event of reopened.events()) after.push(event);
    const answers = [...ofKind(after, 'UserRejectObservation'), ...ofKind(after, 'ObservationEvent')];
    expect(answers.filter((event) => event.action_id === action!.id)).toHaveLength(1);
    expect((await effects()).length).toBe(
      fulfilled.length === 1 && rejected[0]!.reason.existing.decision.kind === 'deny' ? 0 : 1,
    );
    await reopened.close();
  });
});

describe('approval rules', () => {
  it('parses rules with zod, refusing unknown fields and bad patterns', () => {
    expect(approvalRulesSchema.safeParse([{ tool: 'x', status: 'approved', extra: 1 }]).success).toBe(false);
    expect(approvalRulesSchema.safeParse([{ tool: 'x', arguments: { a: '(' }, status: 'approved' }]).success).toBe(
      false,
    );
  });

  it('approves and denies by tool and argument pattern, recording the rule; asks a person otherwise', async () => {
    const rules: ApprovalRules = [
      {
        name: 'no-secrets',
        tool: 'record_effect',
        arguments: { label: 'secret' },
        status: 'denied',
        reason: 'secrets stay',
      },
      { name: 'safe', tool: 'record_effect', arguments: { label: 'safe-[a-z]+' }, status: 'approved' },
      { tool: '*', arguments: { label: 'ask' }, status: 'user-approval' },
    ];
    const { conversation, events, result } = await waiting(
      [
        {
          toolCalls: [
            { name: 'record_effect', arguments: { label: 'safe-one' } },
            { name: 'record_effect', arguments: { label: 'the-secret' } },
          ],
        },
        call('please-ask'),
        done,
      ],
      { approvalRules: rules },
    );
    expect(result.status).toBe('waiting_for_confirmation');
    expect(await effects()).toEqual(['safe-one']);
    expect(ofKind(events, 'UserRejectObservation')[0]?.rejection_reason).toBe('secrets stay');
    const decided = ofKind(events, 'ActionEvent').slice(0, 2);
    expect((await readDecision(conversation.store, conversation.directory, decided[0]!.id))?.principal).toBe(
      'rule:safe',
    );
    expect((await readDecision(conversation.store, conversation.directory, decided[1]!.id))?.principal).toBe(
      'rule:no-secrets',
    );
    const [asked] = await conversation.pendingActions();
    expect(asked?.action).toMatchObject({ label: 'please-ask' });
    await conversation.decide([{ action_id: asked!.id, decision: { kind: 'approve' } }], { principal: 'carol' });
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['safe-one', 'please-ask']);
  });
});
