import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createEventRegistry } from '../registry/event-registry.js';
import { parseEvent, parseEventJson, safeParseEvent } from './parse-event.js';
import { isRoundTripSafe } from './round-trip-events.js';
import { serializeEvent } from './serialize-event.js';

const base = { id: 'e1', timestamp: '2026-01-01T00:00:00.000000', source: 'environment' };
const stateUpdate = { ...base, key: 'k', value: { n: 1 }, kind: 'ConversationStateUpdateEvent' };
const errorEvent = { ...base, code: 'LLMRateLimitError', detail: 'slow down', kind: 'ConversationErrorEvent' };

function failureOf(value: unknown, registry = createEventRegistry()) {
  const result = safeParseEvent(value, { registry });
  expect(result.success).toBe(false);
  if (result.success) throw new Error('expected a parse failure');
  return result.error;
}

describe('a registered schema that throws', () => {
  it('is a parse failure naming the event id and kind, never a throw', () => {
    const registry = createEventRegistry();
    registry.registerEventKind(
      'ThrowingEvent',
      z.object({
        note: z.string().refine(() => {
          throw new Error('boom');
        }),
      }),
    );
    const error = failureOf({ ...base, note: 'x', kind: 'ThrowingEvent' }, registry);
    expect([error.eventId, error.eventKind]).toEqual(['e1', 'ThrowingEvent']);
    expect(error.issues).toEqual([{ path: '', message: 'could not be validated (boom)' }]);
    expect((error.cause as Error).message).toBe('boom');
  });

  it('a schema failure carries no cause', () => {
    expect(failureOf({ ...stateUpdate, key: 1 }).cause).toBeUndefined();
  });
});

describe('events of an unknown kind (kept opaque)', () => {
  it('keep their id, source, parent and JSON exactly', () => {
    const json = { ...base, parent_id: 'p', extra: null, kind: 'FutureEvent' };
    const event = parseEvent(json);
    expect(event).toEqual({
      kind: 'OpaqueEvent',
      opaque_kind: 'FutureEvent',
      id: 'e1',
      timestamp: base.timestamp,
      source: 'environment',
      parent_id: 'p',
      json,
    });
  });

  it('leave out a source or parent they do not have', () => {
    const event = parseEvent({ id: 'e1', kind: 'FutureEvent' });
    expect(Object.keys(event).sort()).toEqual(['id', 'json', 'kind', 'opaque_kind', 'timestamp']);
  });

  it('are rejected with an empty id, naming the kind', () => {
    const error = failureOf({ ...base, id: '', kind: 'FutureEvent' });
    expect(error.issues).toEqual([{ path: 'id', message: 'an event of an unknown kind still needs a string id' }]);
    expect(error.eventKind).toBe('FutureEvent');
  });

  it('are rejected when nested deeper than the depth limit', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 2000; i += 1) deep = [deep];
    const error = failureOf({ ...base, deep, kind: 'FutureEvent' });
    expect(error.eventKind).toBe('FutureEvent');
    expect(error.eventId).toBe('e1');
  });
});

describe('known kinds', () => {
  it('reject a value JSON cannot hold, naming id and kind', () => {
    const error = failureOf({ ...stateUpdate, value: { n: Number.NaN, f: () => 1 } });
    expect([error.eventId, error.eventKind]).toEqual(['e1', 'ConversationStateUpdateEvent']);
  });

  it('report a failure with one issue and with several', () => {
    expect(failureOf({ ...stateUpdate, key: 1 }).issues).toHaveLength(1);
    expect(failureOf({ ...stateUpdate, key: 1, timestamp: 2 }).issues.length).toBeGreaterThan(1);
  });

  it('validate a registered observation payload', () => {
    const registry = createEventRegistry();
    registry.registerObservationKind('NoteObservation', z.object({ note: z.string() }));
    const observation = {
      ...base,
      tool_name: 'note',
      tool_call_id: 'c1',
      action_id: 'a1',
      observation: { kind: 'NoteObservation', content: [], is_error: false, note: 1 },
      kind: 'ObservationEvent',
    };
    const error = failureOf(observation, registry);
    expect(error.issues.map((issue) => issue.path)).toEqual(['observation.note']);
    const ok = safeParseEvent({ ...observation, observation: { ...observation.observation, note: 'n' } }, { registry });
    expect(ok.success).toBe(true);
  });

  it('validate a registered action payload, and accept an ActionEvent without one', () => {
    const registry = createEventRegistry();
    registry.registerActionKind('NoteAction', z.object({ note: z.string() }));
    const action = {
      ...base,
      source: 'agent',
      thought: [],
      tool_name: 'note',
      tool_call_id: 'c1',
      tool_call: { id: 'c1', name: 'note', arguments: '{}', origin: 'completion' },
      llm_response_id: 'r1',
      kind: 'ActionEvent',
    };
    expect(safeParseEvent(action, { registry }).success).toBe(true);
    const error = failureOf({ ...action, action: { kind: 'NoteAction', note: 1 } }, registry);
    expect(error.issues.map((issue) => issue.path)).toEqual(['action.note']);
    const parsed = parseEvent({ ...action, action: { kind: 'NoteAction', note: 'n' } }, { registry });
    expect(parsed.kind === 'ActionEvent' && parsed.action).toEqual({ kind: 'NoteAction', note: 'n' });
  });

  it('compute a missing ConversationErrorEvent classification, and keep a written one', () => {
    const computed = parseEvent(errorEvent);
    expect(computed).toMatchObject({ classification: { kind: 'rate_limit', retryable: true } });
    expect(Object.keys(computed).at(-1)).toBe('kind');
    const written = { kind: 'internal', retryable: false, user_action: 'none' };
    expect(parseEvent({ ...errorEvent, classification: written })).toMatchObject({ classification: written });
  });

  it('keep unknown fields of a caller value as copies, nulls inside them kept', () => {
    // `value` inside is a free-form key: it must be copied too, or freezing the event would freeze the caller's.
    const inner = { x: 1 };
    const extra = { a: null, b: [1, { c: null }], value: inner };
    const event = parseEvent({ ...stateUpdate, extra }) as unknown as { extra: { value: unknown } };
    expect(event.extra).toEqual(extra);
    expect(event.extra).not.toBe(extra);
    expect(event.extra.value).not.toBe(inner);
    expect(Object.isFrozen(inner)).toBe(false);
    expect(Object.keys(event).at(-1)).toBe('kind');
  });
});

describe('the round-trip-safe mark', () => {
  it('is set on events parsed from a value or text with the default registry', () => {
    expect(isRoundTripSafe(parseEvent(stateUpdate))).toBe(true);
    expect(isRoundTripSafe(parseEventJson(JSON.stringify({ ...stateUpdate, extra: 1 })))).toBe(true);
  });

  it('is not set for a caller value with unknown fields, a lossy value or another registry', () => {
    expect(isRoundTripSafe(parseEvent({ ...stateUpdate, extra: 1 }))).toBe(false);
    expect(isRoundTripSafe(parseEvent({ ...stateUpdate, value: { n: -0 } }))).toBe(false);
    expect(isRoundTripSafe(parseEvent(stateUpdate, { registry: createEventRegistry() }))).toBe(false);
  });

  it('holds its promise: a marked event serializes to text that parses back equal', () => {
    const event = parseEvent({ ...stateUpdate, value: { list: [1, 'two', null] } });
    expect(isRoundTripSafe(event)).toBe(true);
    expect(parseEventJson(serializeEvent(event))).toEqual(event);
  });
});
