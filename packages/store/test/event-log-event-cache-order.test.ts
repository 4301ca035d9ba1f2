import { describe, expect, it } from 'vitest';
import { EventCache } from '../src/event-log/event-cache.js';

/**
 * A value set again is the most recently used one: the next eviction takes the oldest other entry. (The property
 * test next to `event-cache.ts` draws short operation lists, which rarely re-set a cached key before an eviction.)
 */
describe('EventCache order', () => {
  it('moves an entry set again to the young end', () => {
    const cache = new EventCache<string>(2);
    cache.set(0, 'a');
    cache.set(1, 'b');
    cache.set(0, 'a again');
    cache.set(2, 'c');
    expect([cache.peek(0), cache.peek(1), cache.peek(2)]).toEqual(['a again', undefined, 'c']);
    cache.set(2, 'c again');
    cache.set(3, 'd');
    expect([cache.peek(0), cache.peek(2), cache.peek(3)]).toEqual([undefined, 'c again', 'd']);
  });
});
