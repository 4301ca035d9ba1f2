import type { CliContext } from '../context.js';
import { openConversation, readEventsSettled } from '../conversation-reader.js';
import { reportDamage } from '../damage-report.js';
import { deriveState } from '../derive-state.js';
import { UsageError } from '../errors/usage-error.js';
import { eventSummary } from '../render/event-summary.js';
import { statsLine } from '../render/stats.js';
import { createVisualizer } from '../render/visualizer.js';
import { resolveConversation } from '../resolve-conversation.js';

export async function replayCommand(
  context: CliContext,
  input: string,
  options: { until?: number; dataDir?: string; check?: boolean },
): Promise<number> {
  if (options.check === true) return (await import('./replay-check.js')).replayCheckCommand(context, input, options);
  const { output } = context;
  const c = output.colors;
  const record = await openConversation(resolveConversation(input, { dataDir: options.dataDir }));
  const total = record.log.length;
  if (options.until !== undefined && options.until >= total) {
    throw new UsageError(
      `--until ${options.until} is past the end: the conversation has ${total} events (#0–#${total - 1}).`,
    );
  }
  const { entries, damaged } = await readEventsSettled(
    record,
    options.until === undefined ? {} : { to: options.until },
  );
  const events = entries.map(({ event }) => event);

  output.line(`${c.bold('Conversation')} ${c.cyan(record.id)}`);
  output.line(`  ${c.dim('saved in'.padEnd(10))} ${record.source.location}`);
  const shown = options.until === undefined ? `${total} events` : `events #0–#${options.until} of ${total}`;
  output.line(
    `  ${c.dim('replaying'.padEnd(10))} ${shown}${record.writtenByReference ? c.dim(' (written by the OpenHands Python SDK)') : ''}`,
  );
  output.line();
  const visualizer = createVisualizer(output);
  for (const { index, event } of entries) visualizer.render(event, index);
  visualizer.flush();

  const state = await deriveState(record, events);
  output.line(statsLine({ stats: state.stats, iterations: state.iteration }, c));
  const label = options.until === undefined ? 'Status' : `State at #${options.until}`;
  output.line(
    `${c.bold(label)}: ${state.execution_status} · ${state.iteration} iteration${state.iteration === 1 ? '' : 's'} · confirmation ${state.confirmation_policy.kind}`,
  );
  if (state.pending_actions.length > 0) {
    output.line(c.yellow(`Pending actions (${state.pending_actions.length}):`));
    for (const pending of state.pending_actions) {
      const event = events.find((candidate) => candidate.id === pending.action_id);
      output.line(`  ${c.yellow('⚙')} ${event === undefined ? pending.tool_name : eventSummary(event, 120)}`);
    }
  }
  if (options.until !== undefined && options.until < total - 1) {
    output.line(c.dim(`${total - 1 - options.until} later events not shown.`));
  }
  return reportDamage(context, record, damaged);
}
