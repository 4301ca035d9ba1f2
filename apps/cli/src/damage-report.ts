import type { CliContext } from './context.js';
import type { ConversationRecord, DamagedEvent } from './conversation-reader.js';
import { ExitCode } from './errors.js';

/**
 * Prints, on stderr, every file of the conversation that could not be read (one line each: event
 * index, location and reason), after the output made of everything else. Returns the exit code:
 * `ExitCode.damaged` when anything was reported, else 0.
 */
export function reportDamage(
  context: CliContext,
  record: ConversationRecord,
  damaged: readonly DamagedEvent[] = [],
): number {
  const { output } = context;
  const ec = output.errorColors;
  for (const problem of record.problems) output.error(`${ec.yellow('warning')} ${problem}`);
  for (const event of damaged) {
    output.error(
      `${ec.red('unreadable')} event #${event.index} ${event.location}: ${event.message} ${ec.dim(`(${event.code})`)}`,
    );
  }
  if (damaged.length > 0) {
    const total = record.log.length;
    output.error(
      ec.dim(
        `${damaged.length} of ${total} event${total === 1 ? '' : 's'} could not be read; the others were shown (exit ${ExitCode.damaged}).`,
      ),
    );
  }
  return record.problems.length > 0 || damaged.length > 0 ? ExitCode.damaged : ExitCode.ok;
}
