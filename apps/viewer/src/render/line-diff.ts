import { diffArrays } from 'diff';

export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/**
 * Past this many inserted plus removed lines, the diff is shown as remove-all / add-all: jsdiff's Myers
 * algorithm costs O((N+M)·D), so only a huge, mostly rewritten file is worth not diffing.
 */
const MAX_EDIT_LENGTH = 20_000;

/**
 * A line diff of `before` → `after` by jsdiff (`diffArrays` over the lines, Myers' algorithm): a few lines
 * changed in a long file show as those lines, whatever the file's length.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) {
    return [
      ...a.map((text): DiffLine => ({ kind: 'removed', text })),
      ...b.map((text): DiffLine => ({ kind: 'added', text })),
    ];
  }
  const lines: DiffLine[] = [];
  for (const change of changes) {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    for (const text of change.value) lines.push({ kind, text });
  }
  return lines;
}
