import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, oneLine, truncateLines } from './truncate.js';

const lines = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('truncateLines', () => {
  it('keeps short texts whole, including ones that would lose only a line or two', () => {
    expect(truncateLines(lines(20), { head: 12, tail: 6 })).toEqual({
      head: lines(20).split('\n'),
      omitted: 0,
      tail: [],
    });
  });

  it('keeps the head and the tail of long texts and counts what it left out', () => {
    const result = truncateLines(lines(100), { head: 3, tail: 2 });
    expect(result.head).toEqual(['line 1', 'line 2', 'line 3']);
    expect(result.tail).toEqual(['line 99', 'line 100']);
    expect(result.omitted).toBe(95);
  });

  it('cuts very long lines and ignores trailing newlines', () => {
    const result = truncateLines(`${'x'.repeat(50)}\n\n`, { maxLineLength: 10 });
    expect(result.head).toEqual([`${'x'.repeat(9)}…`]);
  });
});

describe('formatting', () => {
  it('collapses whitespace into one line', () => {
    expect(oneLine('a\n  b\tc', 10)).toBe('a b c');
    expect(oneLine('abcdefghijkl', 5)).toBe('abcd…');
  });

  it('formats counts and durations', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(12_345)).toBe('12.3s');
    expect(formatDuration(245_000)).toBe('4m 05s');
  });
});
