import { describe, expect, it } from 'vitest';
import {
  createEvent,
  EventParseError,
  eventsToMessages,
  parseEvent,
  parseEventJson,
  serializeEvent,
  toChatCompletionsMessages,
} from '../src/index.js';

const at = '2026-01-01T00:00:00.000000';
/** Canonical texts (what our writer writes), each holding `__proto__` keys inside free-form records. */
const actionText =
  `{"id":"a1","timestamp":"${at}","source":"agent","thought":[],"thinking_blocks":[],` +
  `"action":{"data":{"__proto__":{"x":1},"y":2},"__proto__":{"x":1},"kind":"MCPToolAction"},` +
  `"tool_name":"fetch","tool_call_id":"c1","tool_call":{"id":"c1","name":"fetch",` +
  `"arguments":"{\\"__proto__\\": {\\"x\\": 1}, \\"y\\": 2}","origin":"completion"},` +
  `"llm_response_id":"r1","security_risk":"UNKNOWN","kind":"ActionEvent"}`;
const observationText =
  `{"id":"o1","timestamp":"${at}","source":"environment","tool_name":"fetch","tool_call_id":"c1",` +
  `"observation":{"content":[{"cache_prompt":false,"type":"text","text":"done"}],"is_error":false,` +
  `"__proto__":{"x":1},"extra":{"__proto__":{"z":1}},"kind":"SomeObservation"},"action_id":"a1",` +
  `"extended_content":[],"kind":"ObservationEvent"}`;
/** An array inside a loose observation, its elements holding `__proto__` keys. */
const arrayText =
  `{"id":"o3","timestamp":"${at}","source":"environment","tool_name":"fetch","tool_call_id":"c1",` +
  `"observation":{"content":[{"cache_prompt":false,"type":"text","text":"done"}],"is_error":false,` +
  `"rows":[{"__proto__":{"x":1}},[{"__proto__":2}]],"kind":"SomeObservation"},"action_id":"a1",` +
  `"extended_content":[],"kind":"ObservationEvent"}`;
const messageText =
  `{"id":"m1","timestamp":"${at}","source":"user","llm_message":{"role":"user",` +
  `"content":[{"cache_prompt":false,"type":"text","text":"hi"}],"thinking_blocks":[]},` +
  `"activated_skills":[],"extended_content":[],"critic_result":{"score":1,"metadata":{"__proto__":{"m":1}}},` +
  `"kind":"MessageEvent"}`;

/** Every object in `value` has the plain prototype: no `__proto__` key became one. */
function prototypesUntouched(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(prototypesUntouched);
}

describe('a __proto__ key in a free-form record', () => {
  it.each([
    ['an action (loose) and its MCP data (record)', actionText],
    ['an observation (loose) and a field inside it', observationText],
    ['critic metadata (a zod record)', messageText],
    ['objects inside (nested) arrays of an observation', arrayText],
  ])('in %s is kept as an own field when read and written back byte-equal', (_name, text) => {
    const read = parseEventJson(text);
    expect(serializeEvent(read)).toBe(text);
    // The event object itself holds it (not only the remembered text).
    expect(JSON.stringify(read)).toBe(text);
    expect(prototypesUntouched(read)).toBe(true);
    const fromValue = parseEvent(JSON.parse(text));
    expect(JSON.stringify(fromValue)).toBe(text);
    expect(prototypesUntouched(fromValue)).toBe(true);
  });

  it('reaches the LLM message of the tool call', () => {
    const events = [parseEventJson(actionText), parseEventJson(observationText)];
    const rendered = JSON.stringify(toChatCompletionsMessages(eventsToMessages(events)));
    expect(rendered).toContain('{\\"__proto__\\": {\\"x\\": 1}, \\"y\\": 2}');
    const action = events[0] as { action?: Record<string, unknown> };
    expect(Object.hasOwn(action.action ?? {}, '__proto__')).toBe(true);
    expect(Object.hasOwn(action.action?.data as object, '__proto__')).toBe(true);
  });

  it('is kept by createEvent, as the agent records a call', () => {
    const data = JSON.parse('{"__proto__":{"x":1},"y":2}') as Record<string, unknown>;
    const event = createEvent('ActionEvent', {
      id: 'a1',
      timestamp: at,
      thought: [],
      action: { kind: 'MCPToolAction', data },
      tool_name: 'fetch',
      tool_call_id: 'c1',
      tool_call: { id: 'c1', name: 'fetch', arguments: '{"__proto__":{"x":1},"y":2}', origin: 'completion' },
      llm_response_id: 'r1',
    });
    expect(JSON.stringify(event.action)).toBe('{"data":{"__proto__":{"x":1},"y":2},"kind":"MCPToolAction"}');
    expect(prototypesUntouched(event)).toBe(true);
  });

  it('is a file named __proto__ in an apply_patch commit, kept, and named so in an issue about it', () => {
    const observation = (change: string) =>
      `{"id":"o2","timestamp":"${at}","source":"environment","tool_name":"apply_patch","tool_call_id":"c2",` +
      `"observation":{"content":[],"is_error":false,"commit":{"changes":{"__proto__":${change}}},` +
      `"kind":"ApplyPatchObservation"},"action_id":"a2","extended_content":[],"kind":"ObservationEvent"}`;
    const good = observation('{"type":"add","new_content":"x"}');
    expect(JSON.stringify(parseEventJson(good))).toBe(good);
    try {
      parseEventJson(observation('{"type":"rename"}'));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EventParseError);
      const paths = (error as EventParseError).issues.map((issue) => issue.path);
      expect(paths).toEqual(['observation.commit.changes.__proto__.type']);
    }
  });
});
