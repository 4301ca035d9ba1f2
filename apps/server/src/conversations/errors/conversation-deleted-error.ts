import { ServerError } from '../../errors.js';

/** The conversation is being (or has been) deleted: a request that was already under way gets 409. */
export class ConversationDeletedError extends ServerError {
  declare readonly code: 'conversation_deleted';
  readonly statusCode = 409;
  readonly conversationId: string;

  constructor(conversationId: string) {
    super('conversation_deleted', `Conversation ${conversationId} was deleted`);
    this.conversationId = conversationId;
  }
}
