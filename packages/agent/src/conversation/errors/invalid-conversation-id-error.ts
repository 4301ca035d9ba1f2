import { AgentError } from '../../errors.js';

/**
 * A conversation id that cannot name a conversation's directory: empty, holding a `/` (which would nest one
 * conversation inside another's files), `.` or `..`, a control character, or too long for a file name. Refused
 * before any storage access.
 */
export class InvalidConversationIdError extends AgentError {
  readonly conversationId: string;
  readonly reason: string;

  constructor(conversationId: string, reason: string) {
    super(
      'invalid_conversation_id',
      `Invalid conversation id ${JSON.stringify(conversationId.slice(0, 100))}: ${reason}`,
    );
    this.conversationId = conversationId;
    this.reason = reason;
  }
}
