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

  it('falls back to remove-all/add-all past the LCS limit', () => {
    const before = Array.from({ length: 500 }, (_, index) => `a${index}`).join('\n');
    const after = Array.from({ length: 500 }, (_, index) => `b${index}`).join('\n');
    const diff = lineDiff(before, after);
    expect(diff).toHaveLength(1000);
    expect(diff[0]).toEqual({ kind: 'removed', text: 'a0' });
    expect(diff[500]).toEqual({ kind: 'added', text: 'b0' });
  });
});
