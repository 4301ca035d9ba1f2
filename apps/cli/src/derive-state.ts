import {
  type ConversationState,
  conversationStatsSnapshotSchema,
  executionStatusSchema,
  hyphenateConversationId,
  stateAt,
} from '@x/agent';
import type { AnyEvent } from '@x/events';
import type { ConversationRecord } from './conversation-reader.js';

/**
 * The conversation's state after its first `count` events (all by default), folded from the events.
 * For the whole of a directory written by the Python reference, base_state.json's status, stats and
 * policy are authoritative (the standalone reference records no state-change events), as when the
 * agent package resumes such a directory.
 */
export async function deriveState(
  record: ConversationRecord,
  events: readonly AnyEvent[],
  count = events.length,
): Promise<ConversationState> {
  const state = await stateAt(hyphenateConversationId(record.id), events, count);
  const base = record.baseState;
  if (base === undefined || !record.writtenByReference || count < record.log.length) return state;
  const status = executionStatusSchema.safeParse(base.execution_status);
  const stats = conversationStatsSnapshotSchema.safeParse(base.stats);
  return {
    ...state,
    ...(status.success ? { execution_status: status.data } : {}),
    ...(stats.success ? { stats: stats.data } : {}),
    ...(base.confirmation_policy === undefined ? {} : { confirmation_policy: base.confirmation_policy }),
    ...(base.max_iterations === undefined ? {} : { max_iterations: base.max_iterations }),
  };
}
