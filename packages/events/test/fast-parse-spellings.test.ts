import { describe, expect, it } from 'vitest';
import { type BuiltinEventKind, createEvent, EventParseError, parseEvent } from '../src/index.js';
import { fastParseEvent } from '../src/json/fast-parse.js';
import { walkJson } from '../src/json/walk-json.js';

/**
 * JSON text spelled unusually (escaped and duplicate keys, unicode escapes, exponents, -0, integer-like and
 * prototype-named keys, whitespace) reaches `createEvent`'s fast path as whatever `JSON.parse` made of it: the
 * created event must be the one parsing gives, field for field and in the same key order.
 */
const call = '"tool_call":{"id":"c1","name":"run","arguments":"{}","origin":"completion"}';
const action = (extra: string) =>
  `{"id":"a1","timestamp":"t","thought":[],"tool_name":"run","tool_call_id":"c1",${call},"llm_response_id":"r"${extra}}`;
const observation = (payload: string) =>
  `{"id":"o1","timestamp":"t","tool_name":"run","tool_call_id":"c1","action_id":"a1","observation":${payload}}`;

const cases: [string, BuiltinEventKind, string][] = [
  ['an escaped key', 'ActionEvent', action(',"\\u0073ummary":"s","secu\\u0072ity_risk":"LOW"')],
  ['duplicate keys (the last wins)', 'ActionEvent', action(',"summary":"first","summary":"second"')],
  ['unicode escapes in values', 'ActionEvent', action(',"summary":"\\u00e9\\ud83d\\ude00\\u0000"')],
  ['exponents and -0 in an action', 'ActionEvent', action(',"action":{"kind":"K","big":1e2,"zero":-0,"tiny":1E-7}')],
  ['integer-like keys in an action', 'ActionEvent', action(',"action":{"b":1,"2":"two","kind":"K","1":"one"}')],
  [
    'prototype-named keys in an action',
    'ActionEvent',
    action(',"action":{"kind":"K","constructor":{"a":1},"toString":"s","hasOwnProperty":false}'),
  ],
  ['whitespace everywhere', 'ActionEvent', `\n\t ${action(' , "summary" :\r\n "s" ').replaceAll(',', ' ,\n ')} `],
  [
    'a text part spelled twice',
    'ObservationEvent',
    observation('{"kind":"K","content":[{"type":"text","text":"a","text":"b"}]}'),
  ],
  [
    'an observation of integer-like and prototype-named keys',
    'ObservationEvent',
    observation('{"10":1,"kind":"K","valueOf":null,"constructor":{"x":-0},"is_error":true,"is_error":false}'),
  ],
  ['a state value of -0', 'ConversationStateUpdateEvent', '{"id":"u1","timestamp":"t","key":"k","value":-0}'],
  ['a state value of 1e2', 'ConversationStateUpdateEvent', '{"id":"u1","timestamp":"t","key":"k","value":1e2}'],
  ['an escaped key of a state update', 'ConversationStateUpdateEvent', '{"id":"u1","timestamp":"t","\\u006bey":"k"}'],
];

const refused: [string, BuiltinEventKind, string][] = [
  ['a duplicate key whose last value is wrong', 'ActionEvent', action(',"summary":"s","summary":7')],
  ['an escaped security_risk of an unknown level', 'ActionEvent', action(',"security_risk":"\\u004cow"')],
  [
    'a duplicate is_error whose last value is a string',
    'ObservationEvent',
    observation('{"kind":"K","is_error":false,"is_error":"no"}'),
  ],
  [
    'the reserved id spelled with escapes',
    'ConversationStateUpdateEvent',
    '{"id":"\\u005f_root__","timestamp":"t","key":"k"}',
  ],
];

/** The event as JSON text (fields, values and key order) with its objects' prototypes, or the parse issues. */
function outcome(make: () => unknown): unknown {
  try {
    const event = make();
    const prototypes: unknown[] = [];
    const text = JSON.stringify(event, (_key, value) => {
      if (value !== null && typeof value === 'object') prototypes.push(Object.getPrototypeOf(value));
      return value;
    });
    return { event: text, prototypes };
  } catch (error) {
    if (!(error instanceof EventParseError)) throw error;
    return { issues: error.issues };
  }
}

describe('createEvent on unusual JSON spellings', () => {
  for (const [name, kind, text] of cases) {
    it(`creates what parsing gives for ${name}`, () => {
      const fields = JSON.parse(text) as Record<string, unknown>;
      const walked = walkJson(fields, { copy: true, dropNulls: true, foreign: false });
      // The fast path answers for each of these: the comparison below is of its result, not zod's twice.
      expect(walked.ok && fastParseEvent(kind, { ...(walked.value as object), kind })).toBeTruthy();
      const created = outcome(() => createEvent(kind, JSON.parse(text)));
      expect(created).toEqual(outcome(() => parseEvent({ ...JSON.parse(text), kind })));
      expect(created).toHaveProperty('event');
    });
  }

  for (const [name, kind, text] of refused) {
    it(`refuses ${name} with the issues parsing gives`, () => {
      const created = outcome(() => createEvent(kind, JSON.parse(text)));
      expect(created).toHaveProperty('issues');
      expect(created).toEqual(outcome(() => parseEvent({ ...JSON.parse(text), kind })));
    });
  }
});
