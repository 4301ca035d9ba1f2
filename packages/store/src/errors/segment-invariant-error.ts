import { StoreError } from '../errors.js';

/**
 * A check the segment layout makes of its own work failed: something that holds unless @x/store has a defect, or the
 * store under it does not keep what it is given (a write that changes bytes, a read that returns other bytes). The
 * operation stopped before anything wrong was written or served; `problem` says which check failed.
 */
export class SegmentInvariantError extends StoreError {
  declare readonly code: 'segment_invariant';
  /** Where the segment is, as `FileStore.describe` renders it; undefined where the check does not know. */
  readonly location: string | undefined;
  /** What did not hold, naming the event or the records it was about. */
  readonly problem: string;

  constructor(options: { location?: string | undefined; problem: string }) {
    const where = options.location === undefined ? '' : ` ${options.location}`;
    super(
      'segment_invariant',
      `Segment${where}: ${options.problem} (a defect in @x/store, or a store that does not keep what it is given); ` +
        'stopped before anything wrong was written or served',
    );
    this.location = options.location;
    this.problem = options.problem;
  }
}
