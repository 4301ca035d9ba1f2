import { describe, expect, it } from 'vitest';
import { SeenEvents } from './seen-events.js';

const held = (seen: SeenEvents, ids: readonly string[]) => ids.filter((id) => seen.has(id));

describe('SeenEvents, the ids a timestamp replay may repeat', () => {
  it('knows the ids added and no others', () => {
    const seen = new SeenEvents();
    expect(seen.has('a')).toBe(false);
    seen.add('a');
    expect([seen.has('a'), seen.has('b')]).toEqual([true, false]);
  });

  it('holds exactly as many as its capacity, forgetting the oldest first', () => {
    const seen = new SeenEvents(3);
    for (const id of ['a', 'b', 'c']) seen.add(id);
    expect(held(seen, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    seen.add('d');
    expect(held(seen, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    seen.add('e');
    expect(held(seen, ['a', 'b', 'c', 'd', 'e'])).toEqual(['c', 'd', 'e']);
  });

  it('takes an id added again as one: it does not push another out', () => {
    const seen = new SeenEvents(2);
    seen.add('a');
    seen.add('a');
    seen.add('b');
    expect(held(seen, ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('keeps the last 5,000 by default', () => {
    const seen = new SeenEvents();
    const ids = Array.from({ length: 5_001 }, (_, n) => `event-${n}`);
    for (const id of ids.slice(0, 5_000)) seen.add(id);
    expect(seen.has('event-0')).toBe(true);
    seen.add(ids[5_000] as string);
    expect([seen.has('event-0'), seen.has('event-1'), seen.has('event-5000')]).toEqual([false, true, true]);
  });
});
