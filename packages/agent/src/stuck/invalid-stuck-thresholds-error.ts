import { AgentError } from '../errors.js';

/** Stuck-detection thresholds were not integers ≥ 1. */
export class InvalidStuckThresholdsError extends AgentError {
  /** The offending threshold names with what was wrong, e.g. `actionError: expected an integer ≥ 1, got 0`. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super('invalid_stuck_thresholds', `Invalid stuck-detection thresholds: ${problems.join('; ')}`);
    this.problems = problems;
  }
}
