import { canonicalJson } from '@x/store';
import { decidePendingActions, parseActionDecisions } from '../approvals/decide.js';
import type { ActionDecision, DecisionContext, DecisionRecord } from '../approvals/decision.js';
import { readDecision } from '../approvals/decision-records.js';
import { DecisionConflictError } from '../approvals/errors/decision-conflict-error.js';
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
  if (owner.isRunning) {
    // Most often the run the winning decision started: the loser is told of the conflict (naming the winner), not
    // of the run, as on a shared conversation below.
    await assertNoConflict(owner, parseActionDecisions(decisions), context);
    throw new ConversationAlreadyRunningError(owner.id);
  }
  const { ownership } = parts;
  if (ownership.shared && ownership.lease === undefined) {
    // Fail fast on a decision another one already beat (the common case of a late second decision).
    await assertNoConflict(owner, parseActionDecisions(decisions), context);
    try {
      // Deciding holds the lease for a moment: wait for another decider rather than refuse.
      await takeConversationLease(owner, parts, undefined, parts.options.leaseWaitMs ?? DECIDE_LEASE_WAIT_MS);
    } catch (error) {
      // Held by a run the winning decision started: the loser is told of the conflict, not of the run.
      await assertNoConflict(owner, decisions, context);
      throw error;
    }
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

/** How long a decision waits for the lease another decider (or a starting run) holds. */
const DECIDE_LEASE_WAIT_MS = 10_000;

async function assertNoConflict(
  owner: PartsOwner,
  decisions: readonly ActionDecision[],
  context: DecisionContext,
): Promise<void> {
  for (const { action_id: actionId, decision } of decisions) {
    const existing = await readDecision(owner.store, owner.directory, actionId);
    if (existing === undefined) continue;
    // Compared as `decidePendingActions` does: a retry whose edited arguments come in another key order is the same.
    if (existing.principal === context.principal && canonicalJson(existing.decision) === canonicalJson(decision)) {
      continue;
    }
    throw new DecisionConflictError(existing);
  }
}
