import { ServerError } from '../../errors.js';

/** A conversation id that is neither a UUID nor 32 hex digits; refused before any storage access. */
export class InvalidConversationIdError extends ServerError {
  readonly statusCode = 400;
  readonly conversationId: string;

  constructor(conversationId: string) {
    super(
      'invalid_conversation_id',
      `Invalid conversation id ${JSON.stringify(conversationId.slice(0, 100))}: expected a UUID or 32 hex digits`,
    );
    this.conversationId = conversationId;
  }
}
