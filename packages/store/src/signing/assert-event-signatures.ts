import { SignaturesNotVerifiedError } from '../errors/signatures-not-verified-error.js';
import type { SignatureLocation } from './signature-record.js';
import type { SignatureReport, VerifySignaturesOptions } from './signature-report.js';
import { type IndexedEvents, verifyEventSignatures } from './verify-signatures.js';

/**
 * `verifyEventSignatures`, as a check: resolves with the report when its status is `verified`, and otherwise rejects
 * with `SignaturesNotVerifiedError` naming the first event at fault (`invalid`, `incomplete`, or `unsigned`: a log
 * with no signature at all is not a verified one).
 */
export async function assertEventSignatures(
  events: IndexedEvents,
  location: SignatureLocation,
  options: VerifySignaturesOptions = {},
): Promise<SignatureReport> {
  const report = await verifyEventSignatures(events, location, options);
  if (report.status !== 'verified') throw new SignaturesNotVerifiedError(report);
  return report;
}
