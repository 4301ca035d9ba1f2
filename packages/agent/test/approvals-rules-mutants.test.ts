import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApprovalRules, type ConfirmationPolicyInput, readDecision } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

/*
 * How approval rules and the confirmation policy share a batch of calls (`decideByRules`): the rules answer what
 * they match, the policy alone decides whether the calls no rule matches wait for a person.
 */

let harness: Harness;
afterEach(() => harness?.close());

const batch = (...labels: string[]): ScriptedReply => ({
  toolCalls: labels.map((label) => ({ name: 'record_effect', arguments: { label } })),
});
const done: ScriptedReply = { content: 'Done.' };

const rules: ApprovalRules = [
  { name: 'safe', tool: 'record_effect', arguments: { label: 'safe-[a-z]+' }, status: 'approved' },
  { name: 'no-secrets', tool: 'record_effect', arguments: { label: 'secret' }, status: 'denied', reason: 'no' },
  { name: 'ask', tool: 'record_effect', arguments: { label: 'ask-[a-z]+' }, status: 'user-approval' },
];

async function effects(): Promise<string[]> {
  try {
    return (await readFile(join(harness.workspace, 'effects.log'), 'utf8')).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

async function runWithRules(script: ScriptedReply[], confirmationPolicy: ConfirmationPolicyInput) {
  harness = await startHarness(script);
  const made = await harness.conversation({
    agent: harness.agent({ tools: [effectTool] }),
    confirmationPolicy,
    approvalRules: rules,
  });
  await made.conversation.sendMessage('go');
  const result = await made.conversation.run();
  return { ...made, result };
}

function labelsOf(actions: readonly { action?: unknown }[]): unknown[] {
  return actions.map((action) => (action.action as { label?: unknown } | undefined)?.label);
}

function rejections(events: readonly AnyEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'UserRejectObservation' ? [event.rejection_reason] : []));
}

describe('a call no rule matches, beside one a rule approves', () => {
  it('waits for a person when the confirmation policy asks about it: nothing runs, not even the approved call', async () => {
    const { conversation, result } = await runWithRules([batch('safe-one', 'unmatched'), done], {
      kind: 'AlwaysConfirm',
    });
    expect(result.status).toBe('waiting_for_confirmation');
    expect(await effects()).toEqual([]);
    const pending = await conversation.pendingActions();
    expect(labelsOf(pending)).toEqual(['safe-one', 'unmatched']);
    expect((await readDecision(conversation.store, conversation.directory, pending[0]!.id))?.principal).toBe(
      'rule:safe',
    );
    // Only the rule decided: the unmatched call has no decision until a person gives one.
    expect(await readDecision(conversation.store, conversation.directory, pending[1]!.id)).toBeUndefined();
    await conversation.decide([{ action_id: pending[1]!.id, decision: { kind: 'deny', reason: 'not that' } }], {
      principal: 'carol',
    });
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['safe-one']);
  });

  it('runs on without a person when the confirmation policy would not have asked about it', async () => {
    const { conversation, result } = await runWithRules([batch('safe-one', 'unmatched'), done], {
      kind: 'NeverConfirm',
    });
    expect(result.status).toBe('finished');
    expect(await effects()).toEqual(['safe-one', 'unmatched']);
    expect(await conversation.pendingActions()).toEqual([]);
  });
});

describe('a call a rule denies, beside one a rule asks a person about', () => {
  it('answers the denied call before stopping: only the asked call is left waiting', async () => {
    const { conversation, events, result } = await runWithRules([batch('the-secret', 'ask-me'), done], {
      kind: 'NeverConfirm',
    });
    expect(result.status).toBe('waiting_for_confirmation');
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect(rejections(events)).toEqual(['no']);
    const pending = await conversation.pendingActions();
    expect(labelsOf(pending)).toEqual(['ask-me']);
    await conversation.decide([{ action_id: pending[0]!.id, decision: { kind: 'approve' } }], { principal: 'carol' });
    expect((await conversation.run()).status).toBe('finished');
    expect(await effects()).toEqual(['ask-me']);
  });
});

describe('calls the rules answer, under a policy that asks about every call', () => {
  it('run without a person: the policy is asked only about calls no rule matched', async () => {
    const { conversation, events, result } = await runWithRules([batch('safe-one', 'the-secret'), done], {
      kind: 'AlwaysConfirm',
    });
    expect(result.status).toBe('finished');
    expect(await effects()).toEqual(['safe-one']);
    expect(rejections(events)).toEqual(['no']);
    expect(await conversation.pendingActions()).toEqual([]);
  });
});
