import { InvalidUsageIdError } from './errors/invalid-usage-id-error.js';

/**
 * `usageId`, or an `InvalidUsageIdError` for the one name `usage_to_metrics` cannot hold as a key (`__proto__`).
 * Checked where an LLM is made and again where a response is recorded (an LLM object may be written by hand).
 */
export function checkUsageId(usageId: string): string {
  if (usageId === '__proto__') throw new InvalidUsageIdError(usageId);
  return usageId;
}
