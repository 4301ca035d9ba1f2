import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from './compare-code-points.js';

const sign = (value: number): number => Math.sign(value);

describe('compareCodePoints', () => {
  it('orders strings exactly as their UTF-8 bytes compare', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(sign(compareCodePoints(a, b))).toBe(sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts astral characters after U+E000–U+FFFF, unlike the default sort', () => {
    expect(['😀', '\uFFFD', 'a'].sort(compareCodePoints)).toEqual(['a', '\uFFFD', '😀']);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });
});
