import { StoreError } from '../errors.js';

/**
 * A check @x/store makes of its own work failed, outside a segment (see `SegmentInvariantError` for those): something
 * that holds unless @x/store has a defect. The operation stopped before anything wrong was written or served;
 * `problem` says which check failed, naming what it was about.
 */
export class StoreInvariantError extends StoreError {
  declare readonly code: 'store_invariant';
  /** What did not hold. */
  readonly problem: string;

  constructor(problem: string) {
    super('store_invariant', `@x/store: ${problem} (a defect in @x/store); stopped before anything wrong was written`);
    this.problem = problem;
  }
}
