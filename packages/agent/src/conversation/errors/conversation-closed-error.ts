import { AgentError } from '../../errors.js';

/** Using a conversation after `close()`. */
export class ConversationClosedError extends AgentError {
  constructor(conversationId: string) {
    super('conversation_closed', `Conversation ${conversationId} is closed.`);
  }
}
