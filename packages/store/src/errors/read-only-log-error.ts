import { StoreError } from '../errors.js';

/**
 * An append to a log opened read-only: one whose segment is damaged past recovery, opened with
 * `{ damagedSegment: 'read-intact-prefix' }` to read the events before the damage. Appending would give a new event
 * the index of an event the damage took (a fork of the log). Nothing was written.
 */
export class ReadOnlyLogError extends StoreError {
  declare readonly code: 'read_only_log';
  /** Where the log is, as `FileStore.describe` renders it. */
  readonly location: string;
  /** The events the log holds: those before the damage. */
  readonly length: number;

  constructor(options: { location: string; length: number; cause?: unknown }) {
    super(
      'read_only_log',
      `The log ${options.location} is read-only: its segment is damaged and it was opened with ` +
        `{ damagedSegment: 'read-intact-prefix' }, holding only the ${options.length} events before the damage, so ` +
        `an append would take the index of an event the damage took`,
      { cause: options.cause },
    );
    this.location = options.location;
    this.length = options.length;
  }
}
