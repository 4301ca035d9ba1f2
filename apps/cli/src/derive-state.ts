import {
  applyEvent,
  type ConversationState,
  changedSinceCheckpoint,
  checkpointInBaseState,
  conversationStatsSnapshotSchema,
  executionStatusSchema,
  hyphenateConversationId,
  stateAt,
} from '@x/agent';
import type { AnyEvent } from '@x/events';
import type { ConversationRecord } from './conversation-reader.js';

/**
 * The conversation's state after its first `count` events (all by default), folded from the events. For the whole
 * of a conversation, the state a resume of it would have:
 * - a directory written by the Python reference: base_state.json's status, stats and policy are authoritative (the
 *   standalone reference records no state-change events);
 * - one whose base_state.json holds x's checkpoint: the checkpoint (which holds what no event records, such as the
 *   confirmation policy it was created with), the events after it folded on it, and then what the reference changed
 *   in the file since x wrote it (`changedSinceCheckpoint`: it continued the conversation).
 */
export async function deriveState(
  record: ConversationRecord,
  events: readonly AnyEvent[],
  count = events.length,
): Promise<ConversationState> {
  const base = record.baseState;
  const whole = base !== undefined && count >= record.log.length;
  if (whole && !record.writtenByReference) {
    const resumed = fromCheckpoint(base, events, record.log.length);
    if (resumed !== undefined) return resumed;
  }
  const state = await stateAt(hyphenateConversationId(record.id), events, count);
  if (!whole || !record.writtenByReference) return state;
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

/**
 * x's checkpoint with the events after it, and the file's changes since, as a resume derives them; undefined when
 * there is no usable checkpoint, or an event could not be read (the events' indices are then not the log's).
 */
function fromCheckpoint(base: unknown, events: readonly AnyEvent[], logLength: number): ConversationState | undefined {
  const checkpoint = checkpointInBaseState(base);
  if (checkpoint === undefined || events.length !== logLength || checkpoint.event_count > logLength) return undefined;
  let state = checkpoint;
  for (const event of events.slice(checkpoint.event_count)) state = applyEvent(state, event);
  return { ...state, ...changedSinceCheckpoint(base, checkpoint).state };
}
