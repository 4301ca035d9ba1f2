import type { ActionEvent } from '@x/events';
import type { Colors } from './colors.js';
import { oneLine, truncateLines } from './truncate.js';

/** The arguments of a tool call: the validated action's fields, else the JSON the model sent. */
export function toolArguments(event: ActionEvent): Record<string, unknown> | undefined {
  if (event.action !== undefined) {
    const { kind: _kind, ...fields } = event.action;
    return fields;
  }
  try {
    const parsed: unknown = JSON.parse(event.tool_call.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The model's own summary of a call; undefined for the `tool: {json}` fallback the parser makes up. */
export function actionSummary(event: ActionEvent): string | undefined {
  const summary = event.summary;
  if (summary === undefined || summary.startsWith(`${event.tool_name}: `)) return undefined;
  return summary;
}

/**
 * Readable lines for a tool call's arguments: a shell prompt for the terminal, the file and its text for
 * the file editor, the message for finish, `key: value` for anything else. Long values are truncated.
 */
export function toolArgumentLines(event: ActionEvent, colors: Colors): string[] {
  const args = toolArguments(event);
  if (args === undefined) return [colors.dim(oneLine(event.tool_call.arguments, 300))];
  const text = (key: string): string | undefined => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
  switch (event.tool_name) {
    case 'terminal': {
      const command = text('command');
      if (command === undefined) break;
      return [
        `${colors.dim('$')} ${colors.bold(command.split('\n')[0] ?? '')}`,
        ...excerpt(command.split('\n').slice(1).join('\n'), colors),
      ];
    }
    case 'file_editor': {
      const command = text('command') ?? '';
      const path = text('path') ?? '';
      const lines = [`${colors.bold(command)} ${path}${rangeText(args.view_range ?? args.insert_line)}`];
      const fileText = text('file_text');
      const oldText = text('old_str');
      const newText = text('new_str');
      if (fileText !== undefined) lines.push(...excerpt(fileText, colors, { head: 8, tail: 4 }));
      if (oldText !== undefined) lines.push(...prefixed(oldText, colors.red('- '), colors));
      if (newText !== undefined) lines.push(...prefixed(newText, colors.green('+ '), colors));
      return lines;
    }
    case 'finish':
      if (text('message') !== undefined) return excerpt(text('message') ?? '', colors, { plain: true });
      break;
    case 'think':
      if (text('thought') !== undefined) return excerpt(text('thought') ?? '', colors, { plain: true });
      break;
  }
  return Object.entries(args)
    .filter(([key]) => key !== 'summary' && key !== 'security_risk')
    .map(
      ([key, value]) =>
        `${colors.dim(`${key}:`)} ${oneLine(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), 200)}`,
    );
}

function rangeText(value: unknown): string {
  if (Array.isArray(value)) return ` [${value.join(', ')}]`;
  if (typeof value === 'number') return ` after line ${value}`;
  return '';
}

/** A text block with `│` in the margin and a note for the lines left out. */
export function excerpt(
  text: string,
  colors: Colors,
  options: { head?: number; tail?: number; plain?: boolean } = {},
): string[] {
  if (text === '') return [];
  const { head, omitted, tail } = truncateLines(text, {
    head: options.head ?? 12,
    tail: options.tail ?? 6,
  });
  const margin = options.plain === true ? '' : colors.dim('│ ');
  const lines = head.map((line) => `${margin}${line}`);
  if (omitted > 0) lines.push(`${margin}${colors.dim(`… ${omitted} more line${omitted === 1 ? '' : 's'} …`)}`);
  lines.push(...tail.map((line) => `${margin}${line}`));
  return lines;
}

function prefixed(text: string, prefix: string, colors: Colors): string[] {
  return excerpt(text, colors, { head: 6, tail: 3, plain: true }).map((line) => `${prefix}${line}`);
}
