import { AgentError } from '../../errors.js';

/** Creating a conversation whose id is already persisted. */
export class ConversationExistsError extends AgentError {
  readonly conversationId: string;

  constructor(conversationId: string, location: string) {
    super('conversation_exists', `Conversation ${conversationId} already exists at ${location}; resume it instead.`);
    this.conversationId = conversationId;
  }
}
