import type { SecurityRisk } from '@x/events';
import { UnknownRiskComparisonError } from './unknown-risk-comparison-error.js';

/** A risk that has a place in the ordering: everything but UNKNOWN. */
export type KnownSecurityRisk = Exclude<SecurityRisk, 'UNKNOWN'>;

const rank: Readonly<Record<KnownSecurityRisk, number>> = { LOW: 0, MEDIUM: 1, HIGH: 2 };

/**
 * Orders two risks, LOW < MEDIUM < HIGH: negative when `a` is less risky, 0 when equal, positive when riskier.
 * UNKNOWN is not ordered (reference §4.5), so comparing it (or any value that is none of the four) throws
 * `UnknownRiskComparisonError` rather than guessing where it belongs.
 */
export function compareRisk(a: SecurityRisk, b: SecurityRisk): number {
  // Anything without a rank (UNKNOWN, or a value a caller not held to the type passed) would compare as NaN,
  // which is neither riskier nor equal: refused instead, so no check reads it as safe.
  if (!isOrderedRisk(a) || !isOrderedRisk(b)) throw new UnknownRiskComparisonError(a, b);
  return rank[a] - rank[b];
}

/** Whether `risk` has a place in the ordering (LOW, MEDIUM, HIGH): not UNKNOWN, nor a value outside the type. */
export function isOrderedRisk(risk: SecurityRisk): risk is KnownSecurityRisk {
  return typeof risk === 'string' && Object.hasOwn(rank, risk);
}

/**
 * True when `risk` is riskier than `other`; with `reflexive` (the default) an equal risk counts too, so
 * HIGH is riskier than HIGH. Throws `UnknownRiskComparisonError` when either is UNKNOWN.
 */
export function isRiskier(risk: SecurityRisk, other: SecurityRisk, options: { reflexive?: boolean } = {}): boolean {
  const order = compareRisk(risk, other);
  return order > 0 || ((options.reflexive ?? true) && order === 0);
}
