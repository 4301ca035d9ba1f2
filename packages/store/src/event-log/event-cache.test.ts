import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { EventCache } from './event-cache.js';

describe('EventCache', () => {
  it('evicts the least recently used entry once full', () => {
    const cache = new EventCache<string>(2);
    cache.set(0, 'a');
    cache.set(1, 'b');
    expect(cache.get(0)).toBe('a');
    cache.set(2, 'c');
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(0)).toBe('a');
    expect(cache.get(2)).toBe('c');
    expect(cache.size).toBe(2);
  });

  it('holds nothing with capacity 0 and rejects a negative capacity', () => {
    const cache = new EventCache<string>(0);
    cache.set(0, 'a');
    expect(cache.get(0)).toBeUndefined();
    expect(() => new EventCache<string>(-1)).toThrow(InvalidStoreOptionsError);
  });

  it('evicts exactly as a list in use order does, whatever was read, re-set or evicted before', () => {
    // The cache keeps one live key iterator for its evictions: any key it evicted out of turn shows here.
    const operation = fc.record({ kind: fc.constantFrom('get', 'peek', 'set'), key: fc.integer({ min: 0, max: 12 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(operation, { maxLength: 200 }), (capacity, operations) => {
        const cache = new EventCache<string>(capacity);
        /** Keys, oldest use first. */
        let model: number[] = [];
        operations.forEach(({ kind, key }, step) => {
          if (kind === 'set') {
            cache.set(key, `${key}@${step}`);
            model = [...model.filter((each) => each !== key), key].slice(-capacity);
          } else if (kind === 'get') {
            cache.get(key);
            if (model.includes(key)) model = [...model.filter((each) => each !== key), key];
          } else {
            cache.peek(key);
          }
          for (let each = 0; each <= 12; each++) expect(cache.peek(each) !== undefined).toBe(model.includes(each));
          expect(cache.size).toBe(model.length);
        });
      }),
      { numRuns: 300 },
    );
  });
});
