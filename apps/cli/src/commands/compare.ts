import type { BranchComparison, ConversationComparison } from '@x/agent';
import type { CliContext } from '../context.js';
import { terminalText } from '../render/terminal-safe.js';
import { resolveConversation } from '../resolve-conversation.js';
import { openResolved, restoreAgent } from './tree.js';

/** `x compare <a> <b> [--json]`: the two conversations' branches after the events they share. */
export async function compareCommand(
  context: CliContext,
  a: string,
  b: string,
  options: { json?: boolean; dataDir?: string },
): Promise<number> {
  const { compareConversations } = await import('@x/agent');
  const sources = [a, b].map((input) => resolveConversation(input, { dataDir: options.dataDir }));
  // Read only: checkpoints stay off so that opening never restores a file.
  const opened = [];
  for (const source of sources) opened.push(await openResolved(source, { workspaceCheckpoints: false }));
  try {
    const comparison = await compareConversations(opened[0]!.conversation, opened[1]!.conversation);
    if (options.json === true) context.output.line(JSON.stringify(comparison, null, 2));
    else for (const line of comparisonTable(comparison)) context.output.line(line);
    return 0;
  } finally {
    for (const { conversation, source, recordedAgent } of opened) {
      await conversation.close();
      await restoreAgent(source.location, recordedAgent);
    }
  }
}

/** The comparison as a two-column table (one row per measure), then each side's actions. */
export function comparisonTable(comparison: ConversationComparison): string[] {
  const { a, b } = comparison;
  const files = (side: BranchComparison) =>
    side.files_changed === undefined
      ? 'no checkpoints'
      : `+${side.files_changed.added.length} ~${side.files_changed.modified.length} -${side.files_changed.removed.length}`;
  const rows: [string, string, string][] = [
    ['conversation', a.conversation_id, b.conversation_id],
    ['status', a.status, b.status],
    ['events after', String(a.events), String(b.events)],
    ['actions', String(a.actions.length), String(b.actions.length)],
    ['observations', String(a.observations), String(b.observations)],
    ['errors', String(a.errors), String(b.errors)],
    ['tokens', String(a.tokens), String(b.tokens)],
    ['cost', `$${a.cost.toFixed(4)}`, `$${b.cost.toFixed(4)}`],
    ['files changed', files(a), files(b)],
    ['final message', oneLine(a.final_message), oneLine(b.final_message)],
  ];
  const width = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = [
    `Shared: ${comparison.common_events} events${comparison.common_event_id === undefined ? '' : ` (up to ${comparison.common_event_id})`}`,
    ...rows.map((row) =>
      row
        .map((cell, column) => cell.padEnd(width[column]!))
        .join('  ')
        .trimEnd(),
    ),
  ];
  if (comparison.files_differing !== undefined) {
    lines.push(`Files that differ between the two results: ${comparison.files_differing.join(', ') || 'none'}`);
  }
  for (const [label, side] of [
    ['A', a],
    ['B', b],
  ] as const) {
    lines.push(`${label} actions:`);
    for (const action of side.actions) lines.push(`  ${terminalText(action.tool_name)}: ${oneLine(action.summary)}`);
  }
  return lines;
}

function oneLine(text: string | undefined): string {
  if (text === undefined) return '-';
  const flat = terminalText(text).replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
