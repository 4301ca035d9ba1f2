import { EventsError } from '../errors.js';

/** `View.findNextManipulationIndex(t)` found no manipulation index at or after `t`. */
export class NoManipulationIndexError extends EventsError {
  readonly threshold: number;

  constructor(options: { threshold: number; viewLength: number }) {
    super(
      'no_manipulation_index',
      `No manipulation index at or after ${options.threshold} in a view of ${options.viewLength} events`,
    );
    this.threshold = options.threshold;
  }
}
