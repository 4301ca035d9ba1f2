import { describe, expect, it } from 'vitest';
import { createEvent, EventParseError, parseEvent, parseEventJson } from '../src/index.js';
import { fastParseEvent } from '../src/json/fast-parse.js';

const message = {
  timestamp: '2026-01-01T00:00:00.000000',
  source: 'user',
  llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
};

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof EventParseError) return error.issues;
    throw error;
  }
  return undefined;
}

describe('the event id __proto__', () => {
  it('is refused by createEvent, parseEvent and parseEventJson with an EventParseError naming the id', () => {
    const expected = [{ path: 'id', message: '"__proto__" cannot be an event id' }];
    expect(issuesOf(() => createEvent('MessageEvent', { ...message, id: '__proto__' } as never))).toEqual(expected);
    expect(issuesOf(() => parseEvent({ ...message, id: '__proto__', kind: 'MessageEvent' }))).toEqual(expected);
    const text = JSON.stringify({ id: '__proto__', ...message, kind: 'MessageEvent' });
    expect(issuesOf(() => parseEventJson(text))).toEqual(expected);
    // The hand-written path of the kinds created every step leaves the id to the schema, which refuses it.
    const update = { timestamp: '2026-01-01T00:00:00.000000', source: 'environment', key: 'agent_status', value: 'x' };
    expect(fastParseEvent('ConversationStateUpdateEvent', { ...update, id: 'an-id' })).toMatchObject({ id: 'an-id' });
    expect(fastParseEvent('ConversationStateUpdateEvent', { ...update, id: '__proto__' })).toBeUndefined();
    expect(
      issuesOf(() => createEvent('ConversationStateUpdateEvent', { ...update, id: '__proto__' } as never)),
    ).toEqual(expected);
  });

  it('is kept in an event of a kind x does not know (kept as read, never blocked or keyed by x)', () => {
    const opaque = { id: '__proto__', timestamp: '2026-01-01T00:00:00.000000', source: 'user', kind: 'NewKind' };
    expect(parseEvent(opaque)).toMatchObject({ kind: 'OpaqueEvent', id: '__proto__' });
  });

  it('leaves the other inherited names ordinary ids', () => {
    for (const id of ['constructor', 'toString', 'hasOwnProperty', '__proto', 'proto']) {
      expect(createEvent('MessageEvent', { ...message, id } as never).id).toBe(id);
      expect(parseEvent({ ...message, id, kind: 'MessageEvent' }).id).toBe(id);
    }
  });
});
