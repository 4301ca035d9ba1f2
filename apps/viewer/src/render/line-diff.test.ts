import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('keeps common lines and marks the changed ones', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('shows a created file as all added and an emptied one as all removed', () => {
    expect(lineDiff('', 'x\ny')).toEqual([
      { kind: 'added', text: 'x' },
      { kind: 'added', text: 'y' },
    ]);
    expect(lineDiff('x', '')).toEqual([{ kind: 'removed', text: 'x' }]);
  });

  it('finds an insertion in the middle', () => {
    expect(lineDiff('1\n2\n3\n4', '1\n2\nnew\n3\n4').filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'added', text: 'new' },
    ]);
  });

  it('shows a one-line edit of a 500-line file as that line, not a rewrite', () => {
    const lines = Array.from({ length: 500 }, (_, index) => `line ${index}`);
    // Changes near both ends: the lines between them (490) are no reason to give up on the diff.
    const edited = lines.map((line, index) => (index === 5 ? 'line 5, edited' : line));
    edited.splice(495, 0, 'inserted');
    const diff = lineDiff(lines.join('\n'), edited.join('\n'));
    expect(diff.filter((line) => line.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'line 5' },
      { kind: 'added', text: 'line 5, edited' },
      { kind: 'added', text: 'inserted' },
    ]);
    expect(diff.filter((line) => line.kind === 'same')).toHaveLength(499);
  });

  it('shows a file rewritten completely as removed then added', () => {
    const before = Array.from({ length: 500 }, (_, index) => `a${index}`).join('\n');
    const after = Array.from({ length: 500 }, (_, index) => `b${index}`).join('\n');
    const diff = lineDiff(before, after);
    expect(diff).toHaveLength(1000);
    expect(diff.filter((line) => line.kind === 'removed')).toHaveLength(500);
    expect(diff.filter((line) => line.kind === 'added')).toHaveLength(500);
  });
});
