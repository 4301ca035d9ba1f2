import { StoreError } from '../errors.js';

/**
 * An event id that cannot be part of a file name (`event-{index}-{id}.json`). Ids must be 1–200
 * characters from `A-Z a-z 0-9 _ -`; UUIDs (what `@x/events` generates) always qualify.
 */
export class InvalidEventIdError extends StoreError {
  declare readonly code: 'invalid_event_id';
  readonly eventId: string;

  constructor(eventId: string) {
    super(
      'invalid_event_id',
      `Event id ${JSON.stringify(eventId)} cannot be stored: ids must be 1-200 characters of A-Z, a-z, 0-9, '_' and '-'`,
    );
    this.eventId = eventId;
  }
}
