import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEvent, EventParseError, parseEvent, serializeEvent } from '../src/index.js';
import { fastParsedKinds, fastParseEvent } from '../src/json/fast-parse.js';
import { walkJson } from '../src/json/walk-json.js';
import { type BuiltinEventKind, builtinEventSchemas } from '../src/schemas/events.js';
import { arbitraryEventOfKind } from '../src/testing/index.js';
import { createRandom, mutateDocument } from './support/fuzz-mutations.js';

/** Replay a failure with `X_FUZZ_SEED=<seed> pnpm vitest run test/fast-parse.test.ts`. */
const SEED = Number(process.env.X_FUZZ_SEED ?? 0xfa57_2026);

/** What the schema sees in `validateEvent`: the walked copy, nulls dropped. */
function walked(json: unknown): Record<string, unknown> | undefined {
  const result = walkJson(json, { copy: true, dropNulls: true, foreign: false });
  if (!result.ok || result.value === null || typeof result.value !== 'object' || Array.isArray(result.value)) {
    return undefined;
  }
  return result.value as Record<string, unknown>;
}

/** The shapes left to zod (thinking blocks, reasoning items, critic results, image parts) taken out. */
function commonShape(value: Record<string, unknown>): Record<string, unknown> {
  const { thinking_blocks: _t, responses_reasoning_item: _r, critic_result: _c, ...rest } = value;
  const observation = rest.observation as { content?: unknown } | undefined;
  if (Array.isArray(observation?.content)) {
    const content = observation.content.filter((part) => (part as { type?: unknown } | null)?.type !== 'image');
    rest.observation = { ...observation, content };
  }
  return rest;
}

/**
 * The property: when the fast path answers, zod accepts the same value and returns an equal result with
 * the same key order at every level; when zod rejects, the fast path does not answer. Returns whether it answered.
 */
function expectSameAsSchema(kind: BuiltinEventKind, value: Record<string, unknown>): boolean {
  // One value for both (neither changes it): free-form values then hold the same objects, as they would.
  const zod = builtinEventSchemas[kind].safeParse(value);
  const fast = fastParseEvent(kind, value);
  if (fast === undefined) return false;
  expect(zod.success).toBe(true);
  expect(fast).toStrictEqual(zod.data);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
  return true;
}

describe('fastParseEvent gives what the schema gives', () => {
  it('covers the kinds a conversation creates every step', () => {
    expect([...fastParsedKinds].sort()).toEqual(['ActionEvent', 'ConversationStateUpdateEvent', 'ObservationEvent']);
  });

  for (const kind of fastParsedKinds as BuiltinEventKind[]) {
    it(`for generated ${kind}s (and answers for all of their common shapes)`, () => {
      let answered = 0;
      let runs = 0;
      fc.assert(
        fc.property(arbitraryEventOfKind(kind), (event) => {
          runs++;
          const value = walked(JSON.parse(serializeEvent(event)));
          if (value === undefined) return;
          expectSameAsSchema(kind, value);
          if (expectSameAsSchema(kind, commonShape(value))) answered++;
        }),
        { numRuns: 300 },
      );
      // Not vacuous: the fast path answers for the common shapes.
      expect(answered).toBe(runs);
    }, 120_000);

    it(`for mutated ${kind}s (wrong types, missing and extra fields, nulls, __proto__ keys)`, () => {
      const random = createRandom(SEED);
      const bases = fc
        .sample(arbitraryEventOfKind(kind), { numRuns: 50, seed: SEED })
        .map((event) => commonShape(JSON.parse(serializeEvent(event))));
      let rejected = 0;
      let answered = 0;
      for (let round = 0; round < 3_000; round++) {
        let json: unknown;
        try {
          json = JSON.parse(mutateDocument(random, random.pick(bases)));
        } catch {
          continue;
        }
        const value = walked(json);
        if (value === undefined || value.kind !== kind) continue;
        if (!builtinEventSchemas[kind].safeParse(value).success) rejected++;
        if (expectSameAsSchema(kind, value)) answered++;
        expectSameAsSchema(kind, commonShape(value));
      }
      expect(rejected).toBeGreaterThan(100);
      expect(answered).toBeGreaterThan(100);
    }, 120_000);
  }
});

describe('createEvent on the fast path', () => {
  const action = {
    thought: [],
    action: { command: 'ls', kind: 'RunCommandAction' },
    tool_name: 'run_command',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'run_command', arguments: '{"command": "ls"}', origin: 'completion' as const },
    llm_response_id: 'response-1',
    summary: 'run_command: ls',
  };

  it('creates the event parsing gives', () => {
    const event = createEvent('ActionEvent', { ...action, id: 'a1', timestamp: '2026-01-01T00:00:00.000000' });
    expect(Object.isFrozen(event) && Object.isFrozen(event.tool_call)).toBe(true);
    expect(serializeEvent(event)).toBe(serializeEvent(parseEvent(JSON.parse(serializeEvent(event)))));
  });

  it('still rejects invalid fields with the schema’s EventParseError', () => {
    const bad = {
      ...action,
      id: 'a1',
      timestamp: '2026-01-01T00:00:00.000000',
      tool_call: { ...action.tool_call, origin: 'elsewhere' },
    };
    const created = (() => {
      try {
        createEvent('ActionEvent', bad as never);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(created).toBeInstanceOf(EventParseError);
    const parsed = (() => {
      try {
        parseEvent({ ...bad, kind: 'ActionEvent' });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect((created as EventParseError).issues).toEqual((parsed as EventParseError).issues);
    expect((created as EventParseError).issues.map((issue) => issue.path)).toEqual(['tool_call.origin']);
    expect(() => createEvent('ObservationEvent', { ...bad, id: '__root__' } as never)).toThrow(EventParseError);
  });
});

describe('createEvent keeps the shapes the fast path leaves to the schema', () => {
  const fields = {
    id: 'a1',
    timestamp: '2026-01-01T00:00:00.000000',
    thought: [],
    action: { command: 'ls', kind: 'RunCommandAction' },
    tool_name: 'run_command',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'run_command', arguments: '{}', origin: 'completion' as const },
    llm_response_id: 'response-1',
  };
  const thinking = { type: 'thinking', thinking: 'first, list the files', signature: 'sig' };
  const redacted = { type: 'redacted_thinking', data: 'opaque' };
  const rare: [string, Record<string, unknown>][] = [
    ['one thinking block', { thinking_blocks: [thinking] }],
    ['two thinking blocks', { thinking_blocks: [thinking, redacted] }],
    ['a reasoning item', { responses_reasoning_item: { id: 'rs_1', summary: ['why'], encrypted_content: 'enc' } }],
    ['a critic result', { critic_result: { score: 0.5, message: 'fine' } }],
  ];
  for (const [name, extra] of rare) {
    it(`for an ActionEvent with ${name}`, () => {
      const event = createEvent('ActionEvent', { ...fields, ...extra } as never) as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(extra)) expect(event[key]).toEqual(value);
      expect(serializeEvent(event as never)).toBe(
        serializeEvent(parseEvent({ ...fields, ...extra, kind: 'ActionEvent' })),
      );
    });
  }
});
