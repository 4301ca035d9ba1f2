import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);

/** Whether decoding any piece left between placeholders, at any start offset, gives the value back. */
function recoverable(masked: string, value: string): boolean {
  return masked
    .split(placeholder)
    .some((piece) =>
      [0, 1, 2, 3].some((shift) => Buffer.from(piece.slice(shift), 'base64').includes(Buffer.from(value))),
    );
}

describe('the shortest values whose encodings are masked', () => {
  it('hides the base64 run holding a 3-byte value at each of the three byte alignments, whole', () => {
    const value = 'k3y';
    for (const prefix of ['', 'a', 'ab']) {
      const encoded = Buffer.from(`${prefix}${value}`).toString('base64');
      const masked = mask(`data: ${encoded}`, [value]);
      expect({ prefix, masked }).toEqual({ prefix, masked: `data: ${placeholder}` });
      expect({ prefix, recoverable: recoverable(masked, value) }).toEqual({ prefix, recoverable: false });
    }
  });

  it('leaves the base64 and hex of a 2-byte value alone (any byte pair occurs in noise)', () => {
    const base64 = Buffer.from('x!').toString('base64');
    const hex = Buffer.from('x!').toString('hex');
    expect(mask(`data: ${base64} ${hex}`, ['x!'])).toBe(`data: ${base64} ${hex}`);
  });

  it('hides the hex of a 4-byte value as a form, and the hex run holding a 3-byte value', () => {
    const four = Buffer.from('k3y!').toString('hex');
    expect(mask(`dump ${four} ${four.toUpperCase()} done`, ['k3y!'])).toBe(`dump ${placeholder} ${placeholder} done`);
    const three = Buffer.from('k3y').toString('hex');
    expect(mask(`dump ${three} done`, ['k3y'])).toBe(`dump ${placeholder} done`);
    // Hex that is not the value's, even at the other nibble offset, stays.
    expect(mask(`dump 0${three.slice(0, -1)} done`, ['k3y'])).toBe(`dump 0${three.slice(0, -1)} done`);
  });
});

describe('overlapping encoded occurrences', () => {
  it('hides a run of overlapping encoded occurrences whole, leaving no tail', () => {
    // `aaaaa` holds `aaaa` twice, overlapping: its hex matches the value's hex at offsets 0 and 2.
    const hex = Buffer.from('aaaaa').toString('hex');
    expect(mask(`dump ${hex} done`, ['aaaa'])).toBe(`dump ${placeholder} done`);
    const escaped = encodeURIComponent('a a a').replaceAll('a', '%61');
    expect(mask(`q=${escaped}&r=1`, ['a a'])).toBe(`q=${placeholder}&r=1`);
  });
});
