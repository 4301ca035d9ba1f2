// A run is hidden only when its own characters carry every bit of the value: runs are decoded laid end to end with
// a separator of zero bits between them, and bits read from the separator are not the run's.
import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);

describe('a base64 run missing the first or the last bits of a value', () => {
  it('is left as it is when only its last character is missing, even though that character is all zero bits', () => {
    // `@` is 0x40: its last 6 bits, a whole character (`A`) at this alignment, are zero, as the separator's are.
    const value = 'sekri@';
    const whole = Buffer.from(`abcdef${value}`).toString('base64');
    expect(whole).toHaveLength(16);
    expect(whole.endsWith('A')).toBe(true);
    expect(mask(`x ${whole} y`, [value])).toBe(`x ${placeholder} y`);
    const cut = whole.slice(0, -1);
    expect(mask(`x ${cut} y`, [value])).toBe(`x ${cut} y`);
  });

  it('is left as it is when its first bits are missing, even though they are zero bits', () => {
    // `1` is 0x31: its first 2 bits, the end of the third character at this alignment, are zero.
    const value = '1sekrit';
    const whole = Buffer.from(`ab${value}`).toString('base64');
    expect(mask(`x ${whole} y`, [value])).toBe(`x ${placeholder} y`);
    const cut = whole.slice(3);
    expect(mask(`x ${cut} y`, [value])).toBe(`x ${cut} y`);
    expect(mask(`QUJD ${cut} y`, [value])).toBe(`QUJD ${cut} y`);
  });
});
