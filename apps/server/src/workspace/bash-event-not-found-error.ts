import { ServerError } from '../errors.js';

/** `GET /api/bash/bash_events/{event_id}` names no shell event this server keeps (404, as the reference). */
export class BashEventNotFoundError extends ServerError {
  readonly statusCode = 404;
  readonly eventId: string;

  constructor(eventId: string) {
    super('bash_event_not_found', `Shell event not found: ${eventId}`);
    this.eventId = eventId;
  }
}
