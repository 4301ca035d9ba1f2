import { describe, expect, it } from 'vitest';
import { createEvent } from '../create/create-event.js';
import type { AnyEvent } from '../schemas/events.js';
import { parseEvent } from './parse-event.js';
import { eventToJson, serializeEvent } from './serialize-event.js';

describe('serializeEvent, beyond the recent texts it keeps', () => {
  it('never reuses the text of a frozen value it did not validate (a caller froze it, not what it holds)', () => {
    const created = createEvent('ConversationStateUpdateEvent', { key: 'k', value: { n: 1 } });
    const held = { n: 1 };
    const frozen = Object.freeze({ ...created, value: held }) as unknown as AnyEvent;
    expect(serializeEvent(frozen)).toContain('"n":1');
    held.n = 2;
    expect(serializeEvent(frozen)).toContain('"n":2');
  });

  it('writes an opaque event (a kind this package does not know) as the object it was given', () => {
    const given = {
      id: 'e1',
      timestamp: '2026-01-01T00:00:00',
      source: 'environment',
      kind: 'SomeFutureEvent',
      detail: { nested: [1, 'two'] },
    };
    const event = parseEvent(given);
    expect(event.kind).toBe('OpaqueEvent');
    expect(eventToJson(event)).toEqual(given);
    expect(JSON.parse(serializeEvent(event))).toEqual(given);
  });
});
