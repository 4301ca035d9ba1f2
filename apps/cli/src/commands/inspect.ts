import { type AnyEvent, EventTree } from '@x/events';
import type { CliContext } from '../context.js';
import {
  type ConversationRecord,
  type DamagedEvent,
  openConversation,
  readEventsSettled,
} from '../conversation-reader.js';
import { reportDamage } from '../damage-report.js';
import { deriveState } from '../derive-state.js';
import { displayKind, eventSummary } from '../render/event-summary.js';
import { costText, tokensText, usageTotals } from '../render/stats.js';
import { resolveConversation } from '../resolve-conversation.js';
import { describeSandboxPolicy } from '../run/sandbox-options.js';
import { readSandboxPolicies } from '../sandbox-policies.js';
import { subConversations } from '../sub-conversations.js';

export async function inspectCommand(
  context: CliContext,
  input: string,
  options: { json?: boolean; dataDir?: string },
): Promise<number> {
  const record = await openConversation(resolveConversation(input, { dataDir: options.dataDir }));
  const { entries, damaged } = await readEventsSettled(record);
  const events = entries.map(({ event }) => event);
  const report = await buildReport(record, events, damaged);
  const { output } = context;
  if (options.json === true) {
    output.line(JSON.stringify(report, null, 2));
    return reportDamage(context, record, damaged);
  }
  const c = output.colors;
  const row = (label: string, value: string): void => output.line(`  ${c.dim(label.padEnd(13))} ${value}`);
  const statusColor =
    report.status === 'finished' ? c.green : report.status === 'error' || report.status === 'stuck' ? c.red : c.yellow;
  output.line(`${c.bold('Conversation')} ${c.cyan(report.id)}${report.title === undefined ? '' : ` ${report.title}`}`);
  row('status', statusColor(report.status));
  row('location', report.location);
  if (report.workspace !== undefined) row('workspace', report.workspace);
  if (report.model !== undefined) row('model', report.model);
  row('written by', report.written_by === 'reference' ? 'OpenHands Python SDK' : 'x');
  row(
    'events',
    `${report.event_count}${report.first_event_at === undefined ? '' : c.dim(` · ${report.first_event_at} → ${report.last_event_at}`)}`,
  );
  row('iterations', String(report.iterations));
  const totals = usageTotals(report.stats);
  row('tokens', tokensText(totals));
  row('cost', costText(totals));
  row('confirmation', report.confirmation_policy.kind);
  const policy = report.sandbox_policies.at(-1)?.policy;
  if (policy !== undefined) {
    const earlier = report.sandbox_policies.length - 1;
    row(
      'sandbox',
      `${describeSandboxPolicy(policy)}${earlier === 0 ? '' : c.dim(` (since event #${report.sandbox_policies.at(-1)?.since_event}; ${earlier} earlier, see --json)`)}`,
    );
  }
  row(
    'kinds',
    Object.entries(report.kinds)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(c.dim(' · ')) || 'none',
  );
  row(
    'head',
    report.head === null
      ? 'empty'
      : `${report.head.id}${report.head.index < 0 ? '' : c.dim(` (#${report.head.index}, ${report.head.branch_length} on the active branch)`)}`,
  );
  row(
    'branches',
    report.branches.length <= 1 ? String(report.branches.length) : c.yellow(String(report.branches.length)),
  );
  if (report.branches.length > 1) {
    for (const branch of report.branches) {
      output.line(`    ${branch.active ? c.green('●') : c.dim('○')} #${branch.index} ${branch.summary}`);
    }
  }
  if (report.sub_conversations.length > 0) {
    row('sub-agents', String(report.sub_conversations.length));
    for (const child of report.sub_conversations) {
      output.line(`    ${c.cyan(child.id)} ${child.status} ${c.dim(child.location)}`);
    }
  }
  if (report.pending_actions.length === 0) row('pending', 'none');
  else {
    row('pending', c.yellow(`${report.pending_actions.length} action(s) waiting for a result`));
    for (const pending of report.pending_actions)
      output.line(`    ${c.yellow('⚙')} #${pending.index} ${pending.summary}`);
  }
  if (damaged.length > 0) row('unreadable', c.red(`${damaged.length} event file(s), listed on stderr`));
  return reportDamage(context, record, damaged);
}

async function buildReport(record: ConversationRecord, events: readonly AnyEvent[], damaged: DamagedEvent[]) {
  const state = await deriveState(record, events);
  // Counted in a Map: a kind x does not know is named by the log (`constructor`, `__proto__`), and an object would
  // count it from Object.prototype's member; `fromEntries` then makes every kind an own key.
  const counts = new Map<string, number>();
  for (const event of events) counts.set(displayKind(event), (counts.get(displayKind(event)) ?? 0) + 1);
  const kinds: Record<string, number> = Object.fromEntries(counts);
  const indexById = new Map(events.map((event, index) => [event.id, index]));
  const children = subConversations(record.source.location);
  // The tree of a damaged log may be unreadable (unknown parents, cycles): then no HEAD or branches are shown.
  const { headId, activePath, tips } = treeOf(record, events);
  return {
    id: state.id,
    status: state.execution_status,
    ...(state.title === undefined ? {} : { title: state.title }),
    location: record.source.location,
    ...(record.baseState?.workspace?.working_dir === undefined
      ? {}
      : { workspace: record.baseState.workspace.working_dir }),
    ...(record.baseState?.agent?.llm?.model === undefined ? {} : { model: record.baseState.agent.llm.model }),
    written_by: record.writtenByReference ? ('reference' as const) : ('x' as const),
    event_count: events.length,
    ...(damaged.length === 0
      ? {}
      : { unreadable_events: damaged.map(({ index, location, code }) => ({ index, location, code })) }),
    ...(events.length === 0
      ? {}
      : { first_event_at: events[0]?.timestamp, last_event_at: events[events.length - 1]?.timestamp }),
    iterations: state.iteration,
    max_iterations: state.max_iterations,
    confirmation_policy: state.confirmation_policy,
    /** The sandbox policies its processes ran under (x_sandbox_policy.json), oldest first. */
    sandbox_policies: readSandboxPolicies(record.source.location),
    stats: state.stats,
    kinds,
    head:
      headId === undefined ? null : { id: headId, index: indexById.get(headId) ?? -1, branch_length: activePath.size },
    branches: tips.map(({ event, index }) => ({
      leaf_event_id: event.id,
      index,
      active: event.id === headId || activePath.has(index),
      summary: eventSummary(event, 100),
    })),
    sub_conversation_ids: children.map((child) => child.id),
    sub_conversations: children,
    pending_actions: state.pending_actions.map((pending) => {
      const index = indexById.get(pending.action_id) ?? -1;
      const event = events[index];
      return { ...pending, index, summary: event === undefined ? pending.tool_name : eventSummary(event, 120) };
    }),
  };
}

function treeOf(record: ConversationRecord, events: readonly AnyEvent[]) {
  try {
    const tree = EventTree.from(events);
    const headId = tree.activeLeaf(
      record.baseState?.leaf_event_id ?? undefined,
      record.baseState?.head_is_empty === true,
    );
    const activePath = new Set(headId === undefined || !tree.has(headId) ? [] : tree.pathToRoot(headId));
    // Branch tips: tree events nothing answers (state updates are not tree nodes).
    const answered = new Set<string>();
    for (const event of events) {
      if (event.kind === 'ConversationStateUpdateEvent') continue;
      const parent = tree.parentOf(event.id);
      if (parent !== undefined) answered.add(parent);
    }
    const tips = events
      .map((event, index) => ({ event, index }))
      .filter(({ event }) => event.kind !== 'ConversationStateUpdateEvent' && !answered.has(event.id));
    return { headId, activePath, tips };
  } catch {
    return { headId: undefined, activePath: new Set<number>(), tips: [] as { event: AnyEvent; index: number }[] };
  }
}
