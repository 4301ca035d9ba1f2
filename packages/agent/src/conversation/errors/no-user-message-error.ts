import { AgentError } from '../../errors.js';

/** `generateTitle()` on a conversation without a user message. */
export class NoUserMessageError extends AgentError {
  constructor(conversationId: string) {
    super('no_user_message', `Conversation ${conversationId} has no user message to make a title from.`);
  }
}
