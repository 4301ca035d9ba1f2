import type { AnyEvent } from '@x/events';
import type { CliContext } from '../context.js';
import { openConversation, readEventsSettled } from '../conversation-reader.js';
import { reportDamage } from '../damage-report.js';
import { UsageError } from '../errors/usage-error.js';
import type { Colors } from '../render/colors.js';
import { displayKind, eventSummary } from '../render/event-summary.js';
import { resolveConversation } from '../resolve-conversation.js';

export interface EventsOptions {
  kind?: string[];
  source?: string;
  from?: number;
  to?: number;
  json?: boolean;
  dataDir?: string;
}

export async function eventsCommand(context: CliContext, input: string, options: EventsOptions): Promise<number> {
  if (options.from !== undefined && options.to !== undefined && options.from > options.to) {
    throw new UsageError(`--from ${options.from} is after --to ${options.to}.`);
  }
  const record = await openConversation(resolveConversation(input, { dataDir: options.dataDir }));
  const from = options.from ?? 0;
  // One unreadable event file does not hide the others: they are shown, and it is reported on stderr.
  const { entries, damaged } = await readEventsSettled(record, {
    from,
    ...(options.to === undefined ? {} : { to: options.to }),
  });
  const events = entries.map(({ event }) => event);
  const kinds = new Set((options.kind ?? []).map((kind) => kind.toLowerCase()));
  const selected = entries
    .filter(({ event }) => kinds.size === 0 || kinds.has(displayKind(event).toLowerCase()))
    .filter(({ event }) => options.source === undefined || event.source === options.source);

  const { output } = context;
  if (options.json === true) {
    const { serializeEvent } = await import('@x/events');
    for (const { event } of selected)
      output.line(event.kind === 'OpaqueEvent' ? JSON.stringify(event.json) : serializeEvent(event));
    return reportDamage(context, record, damaged);
  }
  if (selected.length === 0) {
    const present = [...new Set(events.map(displayKind))].join(', ');
    output.error(output.errorColors.dim(`No events match${present === '' ? '.' : `; kinds in range: ${present}.`}`));
    return reportDamage(context, record, damaged);
  }
  const c = output.colors;
  const width = String(selected[selected.length - 1]?.index ?? 0).length;
  const room = Math.max(40, (process.stdout.columns ?? 140) - width - 46);
  for (const { event, index } of selected) {
    const time = event.timestamp.slice(11, 19);
    const kind = displayKind(event);
    output.line(
      `${c.dim(String(index).padStart(width))}  ${c.dim(time)}  ${kindColor(event, c)(kind.padEnd(28))} ${c.dim((event.source ?? '').padEnd(11))} ${eventSummary(event, room)}`,
    );
  }
  return reportDamage(context, record, damaged);
}

function kindColor(event: AnyEvent, c: Colors): (text: string) => string {
  switch (event.kind) {
    case 'MessageEvent':
      return event.source === 'user' ? c.cyan : c.green;
    case 'ActionEvent':
      return c.yellow;
    case 'AgentErrorEvent':
    case 'ConversationErrorEvent':
    case 'ServerErrorEvent':
      return c.red;
    case 'ObservationEvent':
      return event.observation.is_error === true ? c.red : (text) => text;
    case 'Condensation':
    case 'CondensationRequest':
      return c.magenta;
    default:
      return c.dim;
  }
}
