import { describe, expect, it } from 'vitest';
import {
  type AnyEvent,
  type BuiltinEventKind,
  createEvent,
  EventParseError,
  parseEvent,
  serializeEvent,
} from '../src/index.js';
import { fastParseEvent } from '../src/json/fast-parse.js';
import { builtinEventSchemas } from '../src/schemas/events.js';

const create = (kind: string, fields: Record<string, unknown>) =>
  createEvent(kind as BuiltinEventKind, fields as never);

/**
 * The fast path of `createEvent` (fast-parse.ts) fills a default only for an absent field, as the schema does: a
 * present falsy value (an empty string, 0, false) is not absent, so it is checked, and refused where the schema
 * refuses it. Each case is created and parsed: both must give the same event, or both the same issues.
 */
const action = {
  id: 'a1',
  timestamp: '2026-01-01T00:00:00.000000',
  thought: [{ type: 'text', text: 'why' }],
  action: { command: 'ls', kind: 'RunCommandAction' },
  tool_name: 'run_command',
  tool_call_id: 'call_1',
  tool_call: { id: 'call_1', name: 'run_command', arguments: '{}', origin: 'completion' },
  llm_response_id: 'response-1',
};
const observation = {
  id: 'o1',
  timestamp: '2026-01-01T00:00:00.000000',
  tool_name: 'run_command',
  tool_call_id: 'call_1',
  action_id: 'a1',
  observation: { content: [{ type: 'text', text: 'out' }], kind: 'RunCommandObservation' },
};
const update = { id: 'u1', timestamp: '2026-01-01T00:00:00.000000', key: 'title' };

type Outcome = { event: string } | { issues: unknown };

function outcome(make: () => AnyEvent): Outcome {
  try {
    return { event: serializeEvent(make()) };
  } catch (error) {
    if (!(error instanceof EventParseError)) throw error;
    return { issues: error.issues };
  }
}

const falsy = ['', 0, false];
const cases: [string, string, Record<string, unknown>][] = [
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `an action's security_risk ${JSON.stringify(value)}`,
    'ActionEvent',
    { ...action, security_risk: value },
  ]),
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `an action's source ${JSON.stringify(value)}`,
    'ActionEvent',
    { ...action, source: value },
  ]),
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `a thought's cache_prompt ${JSON.stringify(value)}`,
    'ActionEvent',
    { ...action, thought: [{ type: 'text', text: 'why', cache_prompt: value }] },
  ]),
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `an observation's is_error ${JSON.stringify(value)}`,
    'ObservationEvent',
    { ...observation, observation: { ...observation.observation, is_error: value } },
  ]),
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `an observation's source ${JSON.stringify(value)}`,
    'ObservationEvent',
    { ...observation, source: value },
  ]),
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `a state update's value ${JSON.stringify(value)}`,
    'ConversationStateUpdateEvent',
    { ...update, value },
  ]),
  ...falsy.map((value): [string, string, Record<string, unknown>] => [
    `a state update's source ${JSON.stringify(value)}`,
    'ConversationStateUpdateEvent',
    { ...update, source: value, value: 'a title' },
  ]),
];

describe('createEvent on the fast path, with falsy values in defaulted fields', () => {
  for (const [name, kind, fields] of cases) {
    it(`gives what parsing gives for ${name}`, () => {
      const created = outcome(() => create(kind, fields));
      const parsed = outcome(() => parseEvent({ ...fields, kind }));
      expect(created).toEqual(parsed);
    });
  }

  it('refuses an empty security_risk and keeps a falsy state update value', () => {
    expect(() => create('ActionEvent', { ...action, security_risk: '' })).toThrow(EventParseError);
    for (const value of falsy) {
      const event = create('ConversationStateUpdateEvent', { ...update, value });
      expect((event as { value?: unknown }).value).toBe(value);
    }
  });
});

describe('fastParseEvent with defaulted fields left out', () => {
  const absent: [BuiltinEventKind, Record<string, unknown>][] = [
    ['ActionEvent', action],
    ['ObservationEvent', { ...observation, observation: { kind: 'RunCommandObservation' } }],
    ['ConversationStateUpdateEvent', update],
  ];
  for (const [kind, fields] of absent) {
    it(`answers for a ${kind} with its defaults, as the schema fills them`, () => {
      const value = { ...fields, kind };
      const fast = fastParseEvent(kind, value);
      expect(fast).toBeDefined();
      expect(JSON.stringify(fast)).toBe(JSON.stringify(builtinEventSchemas[kind].parse(value)));
    });
  }
});
