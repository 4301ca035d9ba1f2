import { StoreError } from '../errors.js';

/**
 * A segment log's segment holds a committed record that is no longer intact: intact records follow it that chain
 * to the event it held, or it is the last record the log holds (or one of several in a row), whole but changed since
 * (not what a crash leaves: its checksum, or the magic and length framing it, fail; records after it, if any, are
 * not the log's). Opening past the damage would drop every event after it and let the next append take their
 * indices (a fork of the log), so the log is not read past it. The reference's event files (`<dir>/event-….json`), derived from the segment, may
 * still hold those events: `open` restores them from there when the hash chain proves them, and throws this only
 * when it cannot.
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
  /**
   * The lost events that could not be recovered from the event files derived from the segment (missing, or not what
   * the hash chain says they were); empty when recovery was not tried.
   */
  readonly unrecovered: readonly number[];
  /** The event a read was for, when a read (not an open) met the damage. */
  readonly reading: number | undefined;

  constructor(options: {
    location: string;
    offset: number;
    end: number;
    missingIndex: number;
    /** The index of the first intact record after the damage; undefined when the damage is the log's last records. */
    nextIntact?: number | undefined;
    /** The last index the damage took, when it took more than `missingIndex` (consecutive damaged records). */
    lastMissingIndex?: number | undefined;
    unrecovered?: readonly number[];
    /** The event a read was for, when a read (not an open) met the damage: only the damaged events are refused. */
    reading?: number | undefined;
  }) {
    const through = options.lastMissingIndex ?? options.missingIndex;
    const lost =
      through > options.missingIndex
        ? `events ${options.missingIndex}…${through} are`
        : `event ${options.missingIndex} is`;
    const what =
      options.reading !== undefined
        ? through > options.missingIndex
          ? `are not intact records (changed since they were written), where events ${options.missingIndex}…${through} were`
          : `are not an intact record (changed since it was written), where event ${options.missingIndex}'s was`
        : options.nextIntact !== undefined
          ? `are not an intact record, yet intact records follow (from event ${options.nextIntact})`
          : through > options.missingIndex
            ? `are the log's last ${through - options.missingIndex + 1} records, whole but changed since they were written (not what a crash leaves)`
            : "are the log's last record, whole but changed since it was written (not what a crash leaves)";
    const unrecovered = options.unrecovered ?? [];
    const recovery =
      unrecovered.length === 0
        ? '(the event files derived from the segment may still hold the events)'
        : `(the event files derived from the segment could not restore event${unrecovered.length === 1 ? '' : 's'} ` +
          `${unrecovered.join(', ')}: missing, or not what the hash chain says; open with ` +
          `{ damagedSegment: 'read-intact-prefix' } to read the events before the damage)`;
    const consequence =
      options.reading === undefined
        ? `${lost} lost from the segment, so the log is not read past it ${recovery}`
        : `event ${options.reading} cannot be read ${recovery.replace(/; open with .*\)$/, ')')}; the log's other events can`;
    super(
      'damaged_segment',
      `Damaged segment ${options.location}: bytes ${options.offset}…${options.end - 1} ${what}; ${consequence}`,
    );
    this.location = options.location;
    this.offset = options.offset;
    this.end = options.end;
    this.missingIndex = options.missingIndex;
    this.unrecovered = unrecovered;
    this.reading = options.reading;
  }
}
