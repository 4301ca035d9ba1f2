import { describe, expect, it } from 'vitest';
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
    expect(() => new EventCache<string>(-1)).toThrow(RangeError);
  });
});
