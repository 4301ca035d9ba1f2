import { ServerError } from '../../errors.js';

export class EventNotFoundError extends ServerError {
  readonly statusCode = 404;
  readonly eventId: string;

  constructor(conversationId: string, eventId: string) {
    super('event_not_found', `Event not found: ${eventId} (conversation ${conversationId})`);
    this.eventId = eventId;
  }
}
