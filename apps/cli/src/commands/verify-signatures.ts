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
  if (report.signed === 0 && report.problem === undefined) {
    output.line(`${c.dim('unsigned')}: no event carries a signature`);
    return;
  }
  if (report.problem === undefined) {
    output.line(
      `${c.green('signatures valid')}: ${report.signed} of ${report.length} events signed` +
        (report.unsigned > 0 ? ` (${report.unsigned} unsigned, the first at index ${report.firstUnsigned})` : ''),
    );
  }
  for (const signer of report.signers) {
    output.line(`  signer ${signer.did}: ${signer.events} event(s) from index ${signer.firstIndex}`);
  }
}
