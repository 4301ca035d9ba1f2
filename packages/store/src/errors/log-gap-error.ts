import { StoreError } from '../errors.js';

/**
 * An append to a log whose directory holds event files past a missing index (a gap no slot claim fills: a file
 * deleted by hand, or a foreign writer's). The log is read up to the gap; an append would take the missing
 * index and put its event before the files past the gap, which the next open that finds the gap filled would
 * read after it (an event inserted into history). Nothing was written.
 */
export class LogGapError extends StoreError {
  declare readonly code: 'log_gap';
  /** The log's directory, as `FileStore.describe` renders it. */
  readonly location: string;
  /** The missing index: the log's length. */
  readonly missingIndex: number;
  /** How many event files lie past the gap. */
  readonly filesPastGap: number;

  /**
   * `entries: 'rows'` for a log kept as database rows (`@x/store-postgres`): its message speaks of a missing row and
   * the rows past it, and `filesPastGap` counts those rows.
   */
  constructor(options: { location: string; missingIndex: number; filesPastGap: number; entries?: 'files' | 'rows' }) {
    super(
      'log_gap',
      options.entries === 'rows'
        ? `Cannot append to the log ${options.location}: index ${options.missingIndex} is missing (no row holds ` +
            `it) while ${options.filesPastGap} row(s) lie past it, so an append would take the missing index ahead ` +
            `of them; restore the missing row or delete the rows past it`
        : `Cannot append to the log ${options.location}: index ${options.missingIndex} is missing (neither its ` +
            `event file nor its slot claim exists) while ${options.filesPastGap} event file(s) lie past it, so an ` +
            `append would take the missing index ahead of them; restore the missing event or move the files past it away`,
    );
    this.location = options.location;
    this.missingIndex = options.missingIndex;
    this.filesPastGap = options.filesPastGap;
  }
}
