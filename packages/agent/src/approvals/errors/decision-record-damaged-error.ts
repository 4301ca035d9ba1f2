import { AgentError } from '../../errors.js';

/**
 * A recorded decision that cannot be read back (not JSON, or not a decision record): the action it decides is
 * neither decided nor safely undecided, so nothing runs on it until the record is repaired or removed.
 */
export class DecisionRecordDamagedError extends AgentError {
  /** The record as the store describes it (a path or URL). */
  readonly record: string;

  constructor(record: string, why: string, options: { cause?: unknown } = {}) {
    super('decision_record_damaged', `Decision record ${record} is damaged: ${why}`, options);
    this.record = record;
  }
}
