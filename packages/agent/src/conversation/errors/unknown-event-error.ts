import { AgentError } from '../../errors.js';

/** `navigateTo` or `fork({ fromEventId })` named an event that is not in the conversation. */
export class UnknownEventError extends AgentError {
  readonly conversationId: string;
  readonly eventId: string;

  constructor(conversationId: string, eventId: string) {
    super('unknown_event', `Unknown event id ${eventId} in conversation ${conversationId}`);
    this.conversationId = conversationId;
    this.eventId = eventId;
  }
}
