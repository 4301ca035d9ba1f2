import { StoreError } from '../errors.js';
import type { SignatureReport } from '../signing/signature-report.js';

/**
 * `assertEventSignatures` found a log whose signatures do not verify: `report.problem` (a signature that does not
 * check out, a misplaced event, a gap, an untrusted signer), else `report.missing` (an event that must be signed and
 * is not), else no signature at all. `index` and `id` name the event (`id` is undefined for a gap, and both for a log
 * that is not signed at all).
 */
export class SignaturesNotVerifiedError extends StoreError {
  declare readonly code: 'signatures_not_verified';
  readonly report: SignatureReport;
  readonly index: number | undefined;
  readonly id: string | undefined;

  constructor(report: SignatureReport) {
    const first = report.problem ?? report.missing;
    const what =
      first?.message ?? `no event of the ${report.length} is signed (require ${JSON.stringify(report.require)})`;
    super('signatures_not_verified', `The event signatures do not verify (${report.status}): ${what}`);
    this.report = report;
    this.index = first?.index;
    this.id = first?.id;
  }
}
