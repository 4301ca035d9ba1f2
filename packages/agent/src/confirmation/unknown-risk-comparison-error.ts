import type { SecurityRisk } from '@x/events';
import { AgentError } from '../errors.js';

/** Thrown when a risk ordering is asked of `UNKNOWN`, which has no place in LOW < MEDIUM < HIGH (§4.5). */
export class UnknownRiskComparisonError extends AgentError {
  declare readonly code: 'unknown_risk_comparison';
  /** The two risks that were compared. */
  readonly risks: readonly [SecurityRisk, SecurityRisk];

  constructor(a: SecurityRisk, b: SecurityRisk) {
    super(
      'unknown_risk_comparison',
      `cannot compare security risks ${String(a)} and ${String(b)}: only LOW < MEDIUM < HIGH are ordered (UNKNOWN is not)`,
    );
    this.risks = [a, b];
  }
}
