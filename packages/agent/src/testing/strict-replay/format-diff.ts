import type { Difference } from './first-difference.js';

const CONTEXT_LINES = 2;
const MAX_LINE = 200;

/**
 * Renders a difference for a human: the path, then for text the first differing line with a little
 * context (`-` recorded, `+` replayed), for anything else both values as JSON. Lines are compared after
 * `normalize` (the one the comparison used), so the line shown is the one that really differs; it is shown as is.
 */
export function formatDiff(
  header: string,
  difference: Difference,
  normalize: (text: string) => string = (text) => text,
): string {
  const lines = [header, `  at ${difference.path || '(the request)'}`];
  const { recorded, replayed } = difference;
  if (typeof recorded === 'string' && typeof replayed === 'string') {
    const a = recorded.split('\n');
    const b = replayed.split('\n');
    let first = 0;
    while (first < a.length && first < b.length && normalize(a[first]!) === normalize(b[first]!)) first++;
    const from = Math.max(0, first - CONTEXT_LINES);
    for (let i = from; i < first; i++) lines.push(`    ${clip(a[i]!)}`);
    if (first < a.length) lines.push(`  - ${clip(a[first]!)}`);
    if (first < b.length) lines.push(`  + ${clip(b[first]!)}`);
    lines.push(`  (line ${first + 1}: recorded ${a.length} lines, replayed ${b.length})`);
  } else {
    lines.push(`  - ${clip(show(recorded))}`, `  + ${clip(show(replayed))}`);
  }
  return lines.join('\n');
}

function show(value: unknown): string {
  return value === undefined ? '(nothing)' : JSON.stringify(value);
}

function clip(text: string): string {
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text;
}
