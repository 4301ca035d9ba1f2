import { AgentError } from '../../errors.js';

/**
 * An eval suite that cannot be used: unreadable, not YAML/JSON, or a case or scorer that does not validate.
 * `caseId` and `field` say where (the case's id, or its index when it has none; a dotted path inside it).
 */
export class InvalidEvalSuiteError extends AgentError {
  declare readonly code: 'invalid_eval_suite';
  /** The case's id (or `cases[N]`), when the problem is inside one. */
  readonly caseId: string | undefined;
  /** Dotted path of the offending field inside the case (or the suite), e.g. `scorers.1.type`. */
  readonly field: string | undefined;
  /** The suite file, when the suite came from one. */
  readonly source: string | undefined;

  constructor(
    details: { source?: string | undefined; caseId?: string | undefined; field?: string | undefined; problem: string },
    options?: { cause?: unknown },
  ) {
    const where = [
      details.source,
      details.caseId === undefined ? undefined : `case ${details.caseId}`,
      details.field === undefined || details.field === '' ? undefined : `field ${details.field}`,
    ].filter((part): part is string => part !== undefined);
    super('invalid_eval_suite', `${where.length > 0 ? `${where.join(', ')}: ` : ''}${details.problem}`, options);
    this.caseId = details.caseId;
    this.field = details.field;
    this.source = details.source;
  }
}
