import { ServerError } from '../../errors.js';

/** No conversation with this id exists in the server's store. */
export class ConversationNotFoundError extends ServerError {
  readonly statusCode: number;
  readonly conversationId: string;

  /** `statusCode` is 404, except on the routes where the reference answers 400 (pause, delete). */
  constructor(conversationId: string, options: { statusCode?: number } = {}) {
    super('conversation_not_found', `Conversation not found: ${conversationId}`);
    this.conversationId = conversationId;
    this.statusCode = options.statusCode ?? 404;
  }
}
