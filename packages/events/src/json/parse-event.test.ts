import { describe, expect, it } from 'vitest';
import { EventParseError } from '../errors/event-parse-error.js';
import { EventsError } from '../errors.js';
import { parseEvent, parseEventJson, safeParseEvent } from './parse-event.js';

const action = {
  id: 'abc',
  timestamp: '2026-01-01T00:00:00.000000',
  source: 'agent',
  thought: [],
  tool_name: 'finish',
  tool_call_id: 'c1',
  tool_call: { id: 'c1', name: 'finish', arguments: '{}', origin: 'completion' },
  llm_response_id: 'r1',
  kind: 'ActionEvent',
};

function parseError(value: unknown): EventParseError {
  const result = safeParseEvent(value);
  if (result.success) throw new Error('expected a parse failure');
  return result.error;
}

describe('parse errors name the event id, kind and field path', () => {
  it('wrong type', () => {
    const error = parseError({ ...action, tool_call: { ...action.tool_call, arguments: { a: 1 } } });
    expect(error.message).toMatch(
      /^Invalid event \(kind ActionEvent, id abc\): tool_call\.arguments: Invalid input: expected string/,
    );
    expect(error.issues).toEqual([
      { path: 'tool_call.arguments', message: expect.stringContaining('expected string') },
    ]);
    expect([error.eventId, error.eventKind, error.code]).toEqual(['abc', 'ActionEvent', 'invalid_event']);
    expect(EventsError.isInstance(error)).toBe(true);
  });

  it('missing required fields, each listed', () => {
    const { tool_name: _, llm_response_id: __, ...rest } = action;
    const error = parseError(rest);
    expect(error.issues.map((issue) => issue.path)).toEqual(['tool_name', 'llm_response_id']);
  });

  it('a nested path with an array index', () => {
    const error = parseError({ ...action, thought: [{ type: 'text', text: 1 }] });
    expect(error.message).toContain('thought[0].text: ');
  });

  it('"__root__" as id', () => {
    const error = parseError({ ...action, id: '__root__' });
    expect(error.message).toContain('id: "__root__" is reserved');
    expect(() => parseEvent({ ...action, id: '' })).toThrow(/id: an event id must not be empty/);
  });

  it('non-object input', () => {
    expect(parseError([]).message).toBe(
      'Invalid event (unknown kind, no id): (root): an event must be a JSON object, got an array',
    );
    expect(parseError(null).message).toContain('got null');
    expect(parseError('text').message).toContain('got string');
  });

  it('invalid JSON text', () => {
    expect(() => parseEventJson('{"id":')).toThrow(EventParseError);
    expect(() => parseEventJson('{"id":')).toThrow(/not valid JSON/);
  });

  it('unknown enum values', () => {
    expect(parseError({ ...action, security_risk: 'EXTREME' }).message).toContain('security_risk: Invalid option');
    expect(parseError({ ...action, source: 'robot' }).issues[0]?.path).toBe('source');
    expect(parseError({ ...action, tool_call: { ...action.tool_call, origin: 'other' } }).issues[0]?.path).toBe(
      'tool_call.origin',
    );
  });

  it('an unknown kind without an id, and a missing kind', () => {
    expect(parseError({ kind: 'FutureEvent' }).message).toContain(
      'id: an event of an unknown kind still needs a string id',
    );
    expect(parseError({ id: 'x' }).issues.map((issue) => issue.path)).toContain('kind');
  });
});

describe('parsing', () => {
  it('never freezes or shares the caller value', () => {
    const value = { stats: { n: 1 } };
    const input = { id: 'e', timestamp: 't', key: 'k', value, extra: { a: 1 }, kind: 'ConversationStateUpdateEvent' };
    const event = parseEvent(input) as unknown as { value: unknown; extra: unknown };
    expect(Object.isFrozen(value)).toBe(false);
    expect(Object.isFrozen(input.extra)).toBe(false);
    expect(event.value).toEqual(value);
    expect(event.value).not.toBe(value);
    expect(Object.isFrozen(event.extra)).toBe(true);
  });

  it('treats null like absence for optional fields and defaults', () => {
    const event = parseEvent({ ...action, parent_id: null, summary: null, thinking_blocks: null, security_risk: null });
    expect(event).toMatchObject({ thinking_blocks: [], security_risk: 'UNKNOWN' });
    expect('parent_id' in event || 'summary' in event).toBe(false);
  });

  it('de-duplicates forgotten_event_ids (a set in the reference)', () => {
    const event = parseEvent({
      id: 'c',
      timestamp: 't',
      llm_response_id: 'r',
      forgotten_event_ids: ['a', 'a', 'b'],
      kind: 'Condensation',
    });
    expect(event.kind === 'Condensation' && event.forgotten_event_ids).toEqual(['a', 'b']);
  });
});
