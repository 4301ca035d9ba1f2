export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Past this many changed lines on each side the diff is shown as remove-all / add-all (no quadratic LCS). */
const LCS_LIMIT = 400;

/**
 * A line diff of `before` → `after`: the common head and tail are kept, the middle is diffed by
 * longest common subsequence when small, else shown as removed then added.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const lines: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  if (midA.length > LCS_LIMIT || midB.length > LCS_LIMIT) {
    for (const text of midA) lines.push({ kind: 'removed', text });
    for (const text of midB) lines.push({ kind: 'added', text });
  } else {
    lines.push(...lcsDiff(midA, midB));
  }
  for (const text of a.slice(a.length - tail)) lines.push({ kind: 'same', text });
  return lines;
}

function lcsDiff(a: string[], b: string[]): DiffLine[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        a[i] === b[j]
          ? table[(i + 1) * cols + j + 1]! + 1
          : Math.max(table[(i + 1) * cols + j]!, table[i * cols + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * cols + j]! >= table[i * cols + j + 1]!) {
      out.push({ kind: 'removed', text: a[i++]! });
    } else {
      out.push({ kind: 'added', text: b[j++]! });
    }
  }
  while (i < a.length) out.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) out.push({ kind: 'added', text: b[j++]! });
  return out;
}
