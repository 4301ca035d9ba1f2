// Overstrikes and controls at the edges of the text: the first character drawn over, a control before anything is
// kept, a span that starts where a run of kept characters starts.
import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);
const value = 'ghp_A1b2C3d4E5f6';

describe('terminal view edges', () => {
  it('hides an overstruck first character of the text with the value, once or twice overstruck', () => {
    expect(mask(`g\b${value}`, [value])).toBe(placeholder);
    expect(mask(`g\bg\b${value}`, [value])).toBe(placeholder);
    expect(mask(`_\b${value} end`, [value])).toBe(`${placeholder} end`);
  });

  it('overstrikes across a control that sits between the character and the backspace', () => {
    const text = `k=${value.slice(0, -1)}_\x1b[1m\b${value.slice(-1)} end`;
    expect(mask(text, [value])).toBe(`k=${placeholder} end`);
  });

  it('takes a backspace before anything is drawn as a control to skip', () => {
    expect(mask(`\b${value.slice(0, 5)}\b${value.slice(5)}`, [value])).toBe(`\b${placeholder}`);
  });

  it('starts the hidden span at the value when it starts right after a control, not at an earlier overstrike', () => {
    expect(mask(`x \x1b[1m${value.slice(0, 4)}\x1b[0m${value.slice(4)}`, [value])).toBe(`x \x1b[1m${placeholder}`);
    const text = `s\bsafe \x1b[1m${value.slice(0, 4)}\x1b[0m${value.slice(4)} end`;
    expect(mask(text, [value])).toBe(`s\bsafe \x1b[1m${placeholder} end`);
  });

  it('skips the short escapes with a final byte from 0 (ESC 0 .. ESC 7, save cursor)', () => {
    for (const sequence of ['\x1b0', '\x1b7', '\x1b8', '\x1b=', '\x1b(0']) {
      const text = `t=${value.slice(0, 6)}${sequence}${value.slice(6)};`;
      expect(mask(text, [value]), JSON.stringify(sequence)).toBe(`t=${placeholder};`);
    }
  });
});
