import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionNotPendingError, DecisionConflictError } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const call: ScriptedReply = { toolCalls: [{ name: 'record_effect', arguments: { label: 'asked' } }] };
const done: ScriptedReply = { content: 'Done.' };

/** A conversation whose one call waits for a decision, and that call. */
async function waitingForDecision() {
  harness = await startHarness([call, done]);
  const { conversation } = await harness.conversation({
    agent: harness.agent({ tools: [effectTool] }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
  });
  await conversation.sendMessage('go');
  expect((await conversation.run()).status).toBe('waiting_for_confirmation');
  const [action] = await conversation.pendingActions();
  return { conversation, action };
}

describe('a retried decision', () => {
  it('is the same decision when its edited arguments come with their keys in another order', async () => {
    const { conversation, action } = await waitingForDecision();
    const [first] = await conversation.decide(
      [{ action_id: action!.id, decision: { kind: 'approve', arguments: { label: 'edited', count: 2 } } }],
      { principal: 'alice' },
    );
    // The client rebuilt its request: the same decision, keys in another order.
    const retried = await conversation.decide(
      [{ decision: { arguments: { count: 2, label: 'edited' }, kind: 'approve' }, action_id: action!.id }],
      { principal: 'alice' },
    );
    expect(retried).toEqual([]);
    // A different decision is still a conflict.
    await expect(
      conversation.decide(
        [{ action_id: action!.id, decision: { kind: 'approve', arguments: { label: 'edited', count: 3 } } }],
        { principal: 'alice' },
      ),
    ).rejects.toBeInstanceOf(DecisionConflictError);
    expect(first?.replacement_action_id).toBeDefined();
    expect((await conversation.run()).status).toBe('finished');
    expect(await readFile(join(harness.workspace, 'effects.log'), 'utf8')).toBe('edited\n');
    await conversation.close();
  });
});

describe('a decision for an action that is not waiting', () => {
  it('says why: no such action is waiting', async () => {
    const { conversation, action } = await waitingForDecision();
    const decide = (actionId: string) =>
      conversation.decide([{ action_id: actionId, decision: { kind: 'approve' } }], { principal: 'alice' });

    await expect(decide('no-such-action')).rejects.toSatisfy(
      (error) =>
        ActionNotPendingError.isInstance(error) &&
        /no such action is waiting \(unknown, or it already has a result\)/.test((error as Error).message),
    );
    expect(await decide(action!.id)).toHaveLength(1);
    expect((await conversation.run()).status).toBe('finished');
    await conversation.close();
  });
});
