import { StoreError } from '../errors.js';

/** `getById(id)` asked for an id the log does not hold. */
export class UnknownEventIdError extends StoreError {
  declare readonly code: 'unknown_event_id';
  readonly eventId: string;

  constructor(eventId: string) {
    super('unknown_event_id', `Unknown event_id: ${eventId}`);
    this.eventId = eventId;
  }
}
