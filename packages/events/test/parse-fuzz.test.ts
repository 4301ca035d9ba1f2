import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEvent, EventsError, parseEvent, parseEventJson, safeParseEvent, serializeEvent } from '../src/index.js';
import {
  createRandom,
  loadFixtureEvents,
  mutateDocument,
  PROTOTYPE_NAMES,
  withProtoKey,
} from './support/fuzz-mutations.js';

const DOCUMENTS = 20_000;
/** Replay a failure with `X_FUZZ_SEED=<seed> pnpm vitest run test/parse-fuzz.test.ts`. */
const SEED = Number(process.env.X_FUZZ_SEED ?? 0x5eed_2026);

const fixtures = loadFixtureEvents(join(import.meta.dirname, '__fixtures__'));

/** Own names of the prototypes an attack would aim at, to check that none gained or lost a property. */
function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Reflect.ownKeys(proto).map(String).sort().join(','))
    .join('|');
}

/** Throws (with the seed and case) unless `error` is the package's typed error with no engine error behind it. */
function expectTyped(error: unknown, where: string): void {
  if (!EventsError.isInstance(error)) {
    throw new Error(`${where}: threw ${String(error)} instead of an EventsError`, { cause: error });
  }
  const cause = (error as Error).cause;
  if (cause instanceof TypeError || cause instanceof RangeError) {
    throw new Error(`${where}: an EventsError caused by ${String(cause)}`, { cause });
  }
}

describe('parsing fuzzed event documents', () => {
  it(`gives only typed errors for ${DOCUMENTS} mutated documents (seed ${SEED})`, () => {
    expect(fixtures.length).toBeGreaterThan(30);
    const before = prototypeSnapshot();
    const random = createRandom(SEED);
    const outcomes = { parsed: 0, rejected: 0 };
    for (let n = 0; n < DOCUMENTS; n++) {
      const where = `seed ${SEED}, document ${n}`;
      const text = mutateDocument(random, random.pick(fixtures));
      let parsed: unknown;
      try {
        const event = parseEventJson(text);
        outcomes.parsed++;
        // What parsed must serialize and parse again to the same JSON.
        const again = serializeEvent(parseEventJson(serializeEvent(event)));
        if (again !== serializeEvent(event)) throw new Error(`${where}: did not round-trip`);
        if (!Object.isFrozen(event) || Object.getPrototypeOf(event) !== Object.prototype) {
          throw new Error(`${where}: the event is not a frozen plain object`);
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith(where)) throw error;
        expectTyped(error, `${where} (parseEventJson)`);
        outcomes.rejected++;
      }
      try {
        parsed = JSON.parse(text);
      } catch {
        continue;
      }
      let result: ReturnType<typeof safeParseEvent>;
      try {
        result = safeParseEvent(parsed);
      } catch (error) {
        throw new Error(`${where}: safeParseEvent threw ${String(error)}`, { cause: error });
      }
      if (!result.success) expectTyped(result.error, `${where} (safeParseEvent)`);
      // The throwing forms share the path above; a sample of them keeps the run short.
      if (n % 4 !== 0) continue;
      for (const call of [() => parseEvent(parsed), () => createEvent('MessageEvent', parsed as never)]) {
        try {
          call();
        } catch (error) {
          expectTyped(error, `${where} (${call.toString()})`);
        }
      }
      if (({} as Record<string, unknown>).polluted !== undefined)
        throw new Error(`${where}: Object.prototype polluted`);
    }
    expect(prototypeSnapshot()).toBe(before);
    // Both outcomes occur, so the fuzzer neither only breaks documents nor leaves them all valid.
    expect(outcomes.parsed).toBeGreaterThan(DOCUMENTS / 20);
    expect(outcomes.rejected).toBeGreaterThan(DOCUMENTS / 20);
    // A few seconds alone; the generous limit is for a full parallel test run on 2 shared cores.
  }, 300_000);

  it('treats every Object.prototype name as a kind of its own (an opaque event), at every level', () => {
    for (const kind of PROTOTYPE_NAMES) {
      const event = parseEventJson(JSON.stringify({ id: 'e1', timestamp: 't', source: 'agent', kind }));
      expect(event).toMatchObject({ kind: 'OpaqueEvent', opaque_kind: kind });
      const safe = safeParseEvent({ id: 'e1', kind });
      expect(safe.success).toBe(true);
      const withAction = parseEventJson(
        JSON.stringify({
          ...fixtures.find((document) => document.kind === 'ActionEvent'),
          action: { kind, command: 'ls' },
        }),
      );
      expect(withAction).toMatchObject({ kind: 'ActionEvent', action: { kind, command: 'ls' } });
    }
  });

  it('gives a typed error, not a stack overflow, for deep nesting in every kind of field', () => {
    const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    const message = fixtures.find((document) => document.kind === 'MessageEvent')!;
    for (const [name, text] of [
      ['an unknown field', JSON.stringify({ ...message, extra: '@' }).replace('"@"', deep(50_000))],
      [
        'a free-form field',
        JSON.stringify({ id: 'x', kind: 'ConversationStateUpdateEvent', key: 'k', value: '@' }).replace(
          '"@"',
          deep(50_000),
        ),
      ],
      ['an opaque event', JSON.stringify({ id: 'x', kind: 'Nope', body: '@' }).replace('"@"', deep(50_000))],
    ] as const) {
      let thrown: unknown;
      try {
        parseEventJson(text);
      } catch (error) {
        thrown = error;
      }
      expect(EventsError.isInstance(thrown), name).toBe(true);
      expect(String((thrown as Error).message)).toContain('nested more than 512 levels');
      const result = safeParseEvent(JSON.parse(text));
      expect(result.success, name).toBe(false);
    }
    // 512 levels (the event object is the first) still parse.
    const atLimit = JSON.stringify({ id: 'x', kind: 'Nope', body: '@' }).replace('"@"', deep(510));
    expect(parseEventJson(atLimit).kind).toBe('OpaqueEvent');
  });

  it('keeps `__proto__` keys as fields and never touches a prototype', () => {
    const text = JSON.stringify({ id: 'x', kind: 'Nope', nested: withProtoKey({ polluted: true }) });
    const event = parseEventJson(text);
    expect(serializeEvent(event)).toBe(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const viaValue = safeParseEvent(JSON.parse(text));
    expect(viaValue.success && serializeEvent(viaValue.event)).toBe(text);
  });

  it('reports cycles and values JSON cannot hold in a caller’s value as typed errors', () => {
    const cyclic: Record<string, unknown> = { id: 'x', kind: 'Nope' };
    cyclic.self = { back: cyclic };
    const knownCyclic: Record<string, unknown> = { ...fixtures.find((document) => document.kind === 'MessageEvent') };
    knownCyclic.extra = knownCyclic;
    for (const value of [
      cyclic,
      knownCyclic,
      { id: 'x', kind: 'Nope', f: () => 1 },
      { id: 'x', kind: 'Nope', n: 1n },
    ]) {
      const result = safeParseEvent(value);
      expect(result.success).toBe(false);
      if (!result.success) expectTyped(result.error, 'value');
    }
    const shared = { big: 'x' };
    let dag: unknown = shared;
    // 2^200 paths through 200 shared levels: each value is walked once, so this ends at once.
    for (let level = 0; level < 200; level++) dag = [dag, dag];
    expect(safeParseEvent({ id: 'x', kind: 'Nope', dag }).success).toBe(true);
  });

  it('turns a throwing getter in a caller’s value into a typed error', () => {
    const value = { id: 'x', kind: 'MessageEvent' };
    Object.defineProperty(value, 'llm_message', {
      enumerable: true,
      get() {
        throw new TypeError('boom');
      },
    });
    const result = safeParseEvent(value);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.message).toContain('boom');
  });
});
