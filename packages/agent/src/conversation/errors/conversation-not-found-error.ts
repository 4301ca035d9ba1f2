import { AgentError } from '../../errors.js';

/** No conversation with this id exists at the persistence location. */
export class ConversationNotFoundError extends AgentError {
  readonly conversationId: string;

  constructor(conversationId: string, location: string) {
    super(
      'conversation_not_found',
      `No conversation ${conversationId} at ${location} (no base_state.json and no events).`,
    );
    this.conversationId = conversationId;
  }
}
