import { AgentError } from '../../errors.js';

/** A baseline file that is missing, not JSON, or not an eval report. */
export class InvalidEvalBaselineError extends AgentError {
  declare readonly code: 'invalid_eval_baseline';
  readonly source: string;

  constructor(source: string, problem: string, options?: { cause?: unknown }) {
    super('invalid_eval_baseline', `${source}: ${problem}`, options);
    this.source = source;
  }
}
