import { describe, expect, it } from 'vitest';
import { createEvent, createEventValue } from './create-event.js';

describe('createEvent copies the caller fields', () => {
  it('keeps a __proto__ field a field, never the prototype of the input or of the event', () => {
    const fields = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const event = createEventValue('PauseEvent', fields) as Record<string, unknown>;
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.hasOwn(event, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(event, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('never changes the fields it was given, and gives fresh ids and timestamps unless given', () => {
    const fields = { reason: 'pause' } as Record<string, unknown>;
    const first = createEventValue('PauseEvent', fields) as Record<string, unknown>;
    const second = createEventValue('PauseEvent', fields) as Record<string, unknown>;
    expect(fields).toEqual({ reason: 'pause' });
    expect(first.id).not.toBe(second.id);
    const given = createEvent('PauseEvent', { id: 'e-1', timestamp: '2026-01-01T00:00:00.000000' });
    expect([given.id, given.timestamp, given.kind]).toEqual(['e-1', '2026-01-01T00:00:00.000000', 'PauseEvent']);
  });
});
