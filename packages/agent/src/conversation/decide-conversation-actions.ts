import { decidePendingActions } from '../approvals/decide.js';
import type { ActionDecision, DecisionContext, DecisionRecord } from '../approvals/decision.js';
import { approvalHostOf } from './approval-host-of.js';
import { conversationRunHost, takeConversationLease } from './conversation-hosts.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';

/**
 * `Conversation.decide`: decided under the conversation's lease when it is shared (so the state is the log's, as
 * `rejectPendingActions` does), recorded per action (the first decision wins), then checkpointed.
 */
export async function decideConversationActions(
  owner: PartsOwner,
  parts: ConversationParts,
  decisions: readonly ActionDecision[],
  context: DecisionContext,
): Promise<DecisionRecord[]> {
  parts.lifecycle.assertOpen();
  if (owner.isRunning) throw new ConversationAlreadyRunningError(owner.id);
  const { ownership } = parts;
  if (ownership.shared && ownership.lease === undefined) {
    await takeConversationLease(owner, parts, undefined, parts.options.leaseWaitMs);
    try {
      return await decideConversationActions(owner, parts, decisions, context);
    } finally {
      await ownership.release();
    }
  }
  const records = await decidePendingActions(approvalHostOf(conversationRunHost(owner, parts)), decisions, context);
  await owner.checkpoint();
  return records;
}
