import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { actionDecisionSchema, decisionRecordPath, decisionRecordSchema, InvalidDecisionError } from '../src/index.js';
import type { ScriptedReply } from '../src/testing/index.js';
import { effectTool } from './support/approval-tools.js';
import { type Harness, startHarness } from './support/harness.js';

// A denial's reason is the UserRejectObservation's rejection_reason: the one thing the model is told of why its call
// did not run ("Action rejected: <reason>"). An empty one is refused, and so is a blank one (whitespace only), which
// would tell it just as little: refused with the InvalidDecisionError of any other invalid decision, nothing
// recorded, the action still waiting. Decision records already written keep reading as they were.

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const call: ScriptedReply = { toolCalls: [{ name: 'record_effect', arguments: { label: 'asked' } }] };
const done: ScriptedReply = { content: 'Done.' };

/** A conversation whose one call waits for a decision, the events it logged, and that call. */
async function waitingForDecision() {
  const started = await startHarness([call, done]);
  harness = started;
  const made = await started.conversation({
    agent: started.agent({ tools: [effectTool] }),
    confirmationPolicy: { kind: 'AlwaysConfirm' },
  });
  await made.conversation.sendMessage('go');
  expect((await made.conversation.run()).status).toBe('waiting_for_confirmation');
  const [action] = await made.conversation.pendingActions();
  return { ...made, action: action! };
}

const rejections = (events: readonly AnyEvent[]) => events.filter((event) => event.kind === 'UserRejectObservation');

describe('a denial with a blank reason', () => {
  it.each([' ', '   ', '\t\n', '\u00a0'])(
    'is refused (%j), nothing recorded, the action still waiting',
    async (reason) => {
      const { conversation, events, action } = await waitingForDecision();
      const attempt = conversation.decide([{ action_id: action.id, decision: { kind: 'deny', reason } }], {
        principal: 'alice',
      });
      await expect(attempt).rejects.toBeInstanceOf(InvalidDecisionError);
      await expect(attempt).rejects.toThrow(
        `Decision for action ${action.id}: a denial's reason is blank: it is the rejection_reason the model is told`,
      );
      expect(await conversation.store.exists(decisionRecordPath(conversation.directory, action.id))).toBe(false);
      expect(rejections(events)).toEqual([]);
      expect((await conversation.pendingActions()).map((pending) => pending.id)).toEqual([action.id]);

      // A reason that says something is taken, and is what the model sees.
      await conversation.decide([{ action_id: action.id, decision: { kind: 'deny', reason: ' not now ' } }], {
        principal: 'alice',
      });
      expect(rejections(events)).toMatchObject([{ rejection_reason: ' not now ' }]);
    },
  );

  it('is refused by the schema an HTTP body is checked with; a record already written still reads', () => {
    const blank = { action_id: 'a1', decision: { kind: 'deny', reason: '  ' } };
    const parsed = actionDecisionSchema.safeParse(blank);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toMatchObject([{ path: ['decision', 'reason'] }]);
    const record = {
      ...blank,
      tool_name: 'record_effect',
      tool_call_id: 'c1',
      principal: 'alice',
      decided_at: '2026-11-21T10:00:00.000Z',
    };
    expect(decisionRecordSchema.safeParse(record).success).toBe(true);
  });
});
