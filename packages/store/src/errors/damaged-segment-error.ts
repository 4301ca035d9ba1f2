import { StoreError } from '../errors.js';

/**
 * A segment log's segment holds bytes that are not an intact record in the middle of its events: intact records
 * follow them that chain to an event the damaged bytes held. Opening past the damage would drop every event after
 * it and let the next append take their indices (a fork of the log), so the log is not read past it. The
 * reference's event files (`<dir>/event-….json`), derived from the segment, may still hold those events.
 */
export class DamagedSegmentError extends StoreError {
  declare readonly code: 'damaged_segment';
  /** Where the segment is, as `FileStore.describe` renders it. */
  readonly location: string;
  /** The damaged bytes: `[offset, end)` in the segment. */
  readonly offset: number;
  readonly end: number;
  /** The index of the first event the damage took (the log's events before it are intact). */
  readonly missingIndex: number;

  constructor(options: { location: string; offset: number; end: number; missingIndex: number; nextIntact: number }) {
    super(
      'damaged_segment',
      `Damaged segment ${options.location}: bytes ${options.offset}…${options.end - 1} are not an intact record, ` +
        `yet intact records follow (from event ${options.nextIntact}); event ${options.missingIndex} is lost from the ` +
        'segment, so the log is not read past it (the event files derived from the segment may still hold the events)',
    );
    this.location = options.location;
    this.offset = options.offset;
    this.end = options.end;
    this.missingIndex = options.missingIndex;
  }
}
