import type { SignatureReport } from '@x/store';
import type { CliContext } from '../context.js';

/** The lines `x verify` prints for the per-event signatures (events/.chain/signatures/), after the chain's. */
export function renderSignatureReport(context: CliContext, report: SignatureReport): void {
  const { output } = context;
  const c = output.colors;
  if (report.problem !== undefined) {
    const { kind, index, id, message } = report.problem;
    output.line(`${c.red('BAD SIGNATURE')} ${kind} at index ${index}${id ? ` (id ${id})` : ''}: ${message}`);
  }
  if (report.missing !== undefined) {
    const { index, id, message } = report.missing;
    output.line(
      `${c.red('UNSIGNED')} at index ${index} (id ${id}): ${message} (--require-signatures ${report.require})`,
    );
  }
  if (report.status === 'unsigned') {
    output.line(`${c.dim('unsigned')}: no event carries a signature`);
    return;
  }
  if (report.status === 'verified') {
    output.line(
      `${c.green('signatures valid')}: ${report.signed} of ${report.length} events signed${unsignedNote(report)}`,
    );
  }
  for (const signer of report.signers) {
    output.line(`  signer ${signer.did}: ${signer.events} event(s) from index ${signer.firstIndex}`);
  }
}

/** Where the unsigned events of a verified log are: before the first signed one, or (`none` required) anywhere. */
function unsignedNote(report: SignatureReport): string {
  if (report.unsigned === 0) return '';
  if (report.unsigned === report.unsignedPrefix) {
    return ` (events 0–${report.unsignedPrefix - 1} unsigned, before the first signed one)`;
  }
  return ` (${report.unsigned} unsigned, the first at index ${report.firstUnsigned})`;
}
