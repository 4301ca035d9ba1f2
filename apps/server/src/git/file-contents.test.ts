import { describe, expect, it } from 'vitest';
import { joinLines } from './file-contents.js';

describe('joinLines', () => {
  it("normalises line breaks and drops the last one, as Python's splitlines and join", () => {
    expect(joinLines('a\r\nb\rc\n')).toBe('a\nb\nc');
    expect(joinLines('a\n\n')).toBe('a\n');
    expect(joinLines('no break')).toBe('no break');
    expect(joinLines('')).toBe('');
  });
});
