import { AgentError } from '../../errors.js';

/**
 * Recording an event in a conversation whose event log ends at a gap: an event file deleted in the middle (with
 * its slot claim), so the log is read up to it while event files lie past it. Appending would put the new event
 * at the missing index, ahead of them. Nothing was written; the message says how to repair it.
 */
export class ConversationLogGapError extends AgentError {
  declare readonly code: 'conversation_log_gap';
  readonly conversationId: string;
  /** The missing index: where the log ends. */
  readonly missingIndex: number;
  /** How many event files lie past it. */
  readonly filesPastGap: number;

  constructor(options: { conversationId: string; missingIndex: number; filesPastGap: number; cause?: unknown }) {
    const { conversationId, missingIndex, filesPastGap } = options;
    const setAside = `events-past-gap-${String(missingIndex).padStart(5, '0')}`;
    super(
      'conversation_log_gap',
      `Conversation ${conversationId} cannot record events: event ${missingIndex} is missing from its log (its ` +
        `event file and slot claim are gone) while ${filesPastGap} event file(s) lie past it, so nothing was ` +
        `written. Restore the missing event file, or resume with \`repairLogGap: true\` to move the files past ` +
        `it aside to ${setAside}/ in the conversation's directory and go on from event ${missingIndex}.`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.conversationId = conversationId;
    this.missingIndex = missingIndex;
    this.filesPastGap = filesPastGap;
  }
}
