import { AgentError } from '../../errors.js';

/** `editEvent` was given content the event cannot take (a field it does not have, an invalid value, a state update). */
export class InvalidEventEditError extends AgentError {
  readonly eventId: string;

  constructor(eventId: string, detail: string, options?: { cause?: unknown }) {
    super('invalid_event_edit', `Cannot edit event ${eventId}: ${detail}`, options);
    this.eventId = eventId;
  }
}
