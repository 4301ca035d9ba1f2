import { describe, expect, it, vi } from 'vitest';
import { action, observation, userMessage } from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import { withParent } from '../create/with-parent.js';
import type { AnyEvent } from '../schemas/events.js';
import { serializeEvent } from './serialize-event.js';

describe('serializeEvent (recent texts kept)', () => {
  it('gives JSON.stringify of every event however calls interleave, past the ring of recent texts', () => {
    const events: AnyEvent[] = [];
    for (let turn = 0; turn < 20; turn++) {
      events.push(userMessage(`hello ${turn}`), action(`c${turn}`, `r${turn}`, { thought: `go ${turn}` }));
      events.push(withParent(observation(`c${turn}`), events.at(-1)!.id));
    }
    // Each event serialized again after 0..19 others: some within the ring, some long evicted.
    for (let gap = 0; gap < 20; gap++) {
      for (let index = 0; index < events.length; index++) {
        const event = events[index]!;
        expect(serializeEvent(event)).toBe(JSON.stringify(event));
        const again = events[(index + events.length - gap) % events.length]!;
        expect(serializeEvent(again)).toBe(JSON.stringify(again));
      }
    }
  });

  it('never reuses the text of a value that can change (not validated here, or not frozen)', () => {
    const plain = {
      ...createEvent('ConversationStateUpdateEvent', { key: 'k', value: { n: 1 } }),
    } as unknown as AnyEvent & { value: { n: number } };
    expect(serializeEvent(plain)).toContain('"n":1');
    plain.value = { n: 2 };
    expect(serializeEvent(plain)).toContain('"n":2');
  });

  it('keeps the text of an event that is serialized twice in a row (the log, then a listener)', () => {
    const event = createEvent('ConversationStateUpdateEvent', { key: 'k', value: { big: 'x'.repeat(1000) } });
    const first = serializeEvent(event);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(serializeEvent(event)).toBe(first);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
    expect(first).toBe(JSON.stringify(event));
  });
});
