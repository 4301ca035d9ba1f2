import { type EventLogLike, LogGapError } from '@x/store';
import { ConversationLogGapError } from './errors/conversation-log-gap-error.js';

/**
 * Throws `ConversationLogGapError` when the conversation's log ends at a gap (`EventLogLike.gap`), before anything
 * is recorded: a message's hooks and the checkpoint written ahead of the first append would run for nothing.
 */
export function rejectLogGap(conversationId: string, log: EventLogLike): void {
  const gap = log.gap;
  if (gap !== undefined) throw new ConversationLogGapError({ conversationId, ...gap });
}

/** The conversation's own error for a store's `LogGapError` (a log that does not tell its gap ahead), else `error`. */
export function asConversationLogGap(conversationId: string, error: unknown): unknown {
  if (!LogGapError.isInstance(error)) return error;
  const { missingIndex, filesPastGap } = error;
  return new ConversationLogGapError({ conversationId, missingIndex, filesPastGap, cause: error });
}

/**
 * `repairLogGap` on resume: ends the log at its gap (`EventLogLike.setAsidePastGap`: the event files past it move,
 * with their claims, to `events-past-gap-<index>/` beside the log) and says so with a process warning
 * (`X_LOG_GAP_REPAIRED`) naming what moved where. Nothing happens to a log without a gap.
 */
export async function repairLogGap(conversationId: string, log: EventLogLike): Promise<void> {
  if (log.gap === undefined || log.setAsidePastGap === undefined) return;
  const moved = await log.setAsidePastGap();
  if (moved === undefined) return;
  process.emitWarning(
    `Conversation ${conversationId}: event ${moved.missingIndex} was missing; as asked (repairLogGap), the ` +
      `${moved.eventFiles.length} event file(s) past it were moved with their slot claims to ${moved.movedTo} ` +
      `in its directory, and the conversation goes on from event ${moved.missingIndex}`,
    { code: 'X_LOG_GAP_REPAIRED' },
  );
}
