import { describe, expect, it } from 'vitest';
import { action, observation, userMessage } from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import { withParent } from '../create/with-parent.js';
import { createEventRegistry } from '../registry/event-registry.js';
import { parseEvent, parseEventJson } from './parse-event.js';
import { isRoundTripSafe } from './round-trip-events.js';
import { serializeEvent } from './serialize-event.js';

describe('isRoundTripSafe', () => {
  it('holds for created and parsed events, which parse back equal from their text', () => {
    const events = [
      userMessage('hello'),
      action('c1', 'r1', { thought: 'go' }),
      observation('c1'),
      createEvent('ConversationStateUpdateEvent', { key: 'stats', value: { a: [1, null, 2.5], b: null } }),
    ];
    for (const event of events) {
      expect(isRoundTripSafe(event)).toBe(true);
      const text = serializeEvent(event);
      const reparsed = parseEventJson(text);
      expect(reparsed).toEqual(event);
      expect(isRoundTripSafe(reparsed)).toBe(true);
      expect(isRoundTripSafe(parseEvent(JSON.parse(text)))).toBe(true);
    }
  });

  it('does not hold when the JSON text would not carry the value back', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, -0, [1, undefined], { nested: { x: Number.NaN } }]) {
      const event = createEvent('ConversationStateUpdateEvent', { key: 'k', value });
      expect(isRoundTripSafe(event)).toBe(false);
    }
  });

  it('does not hold for a registry other than the default one, nor for unknown top-level fields of a caller value', () => {
    const registry = createEventRegistry();
    expect(isRoundTripSafe(createEvent('PauseEvent', { source: 'user' }, { registry }))).toBe(false);
    const extra = parseEvent({ ...JSON.parse(serializeEvent(userMessage('x'))), future_field: { a: null } });
    expect(isRoundTripSafe(extra)).toBe(false);
    expect(isRoundTripSafe({ kind: 'PauseEvent' })).toBe(false);
  });
});

describe('isRoundTripSafe after withParent', () => {
  it('carries over to the re-parented copy, which parses back equal', () => {
    const copy = withParent(userMessage('x'), 'parent-1');
    expect(isRoundTripSafe(copy)).toBe(true);
    expect(parseEventJson(serializeEvent(copy))).toEqual(copy);
  });

  it('marks the copy itself (a symbol of its own, invisible to keys and JSON), not a WeakSet growing per event', () => {
    const original = withParent(userMessage('x'), 'parent-1');
    const copy = withParent(original, 'parent-2');
    for (const event of [original, copy]) {
      expect(Object.isFrozen(event)).toBe(true);
      expect(Object.getOwnPropertySymbols(event)).toHaveLength(1);
      expect(Object.keys(event)).not.toContain(Object.getOwnPropertySymbols(event)[0]);
    }
    expect(isRoundTripSafe(copy)).toBe(true);
    expect(JSON.parse(serializeEvent(copy)).parent_id).toBe('parent-2');
  });
});
