import { StoreError } from '../errors.js';

/** An append carried an id that the log already holds; the log is unchanged. */
export class DuplicateEventIdError extends StoreError {
  declare readonly code: 'duplicate_event_id';
  readonly eventId: string;
  /** Where the event with that id already is. */
  readonly existingIndex: number;

  constructor(eventId: string, existingIndex: number) {
    super('duplicate_event_id', `Event with ID '${eventId}' already exists at index ${existingIndex}`);
    this.eventId = eventId;
    this.existingIndex = existingIndex;
  }
}
