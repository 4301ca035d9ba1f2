import { AgentError } from '../../errors.js';

/** A second `run` while one is in progress on the same conversation. */
export class ConversationAlreadyRunningError extends AgentError {
  readonly conversationId: string;

  constructor(conversationId: string) {
    super(
      'conversation_running',
      `Conversation ${conversationId} is already running. Wait for the current run to end, or pause it first.`,
    );
    this.conversationId = conversationId;
  }
}
