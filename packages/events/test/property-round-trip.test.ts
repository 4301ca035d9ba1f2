import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AnyEvent, messageSchema, parseEvent, parseEventJson, serializeEvent } from '../src/index.js';
import {
  arbitraryEvent,
  arbitraryEventOfKind,
  arbitraryMessage,
  arbitraryOpaqueEventJson,
  builtinEventKinds,
} from '../src/testing/index.js';

/** Keys whose values are free-form JSON: a null inside them is data, so none is added there. */
const freeForm = new Set([
  'value',
  'hook_input',
  'raw_input',
  'raw_output',
  'metadata',
  'meta',
  'mcp_tool',
  'data',
  'input_schema',
  'response_schema',
]);
/** Optional model fields the generator may leave out; a REST single-event GET writes them as null. */
const optionalKeys = [
  'parent_id',
  'summary',
  'reasoning_content',
  'tool_calls',
  'name',
  'signature',
  'error_id',
  'sender',
];

/** Adds explicit nulls for absent optional fields at every model level (not inside free-form values). */
function withExplicitNulls(value: unknown, topLevel = true): unknown {
  if (Array.isArray(value)) return value.map((item) => withExplicitNulls(item, false));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  // ACPToolCallEvent.content is list[Any]: free-form there only.
  const acpContent = topLevel && (value as { kind?: unknown }).kind === 'ACPToolCallEvent';
  for (const [key, item] of Object.entries(value)) {
    out[key] = freeForm.has(key) || (acpContent && key === 'content') ? item : withExplicitNulls(item, false);
  }
  for (const key of optionalKeys) if (!(key in out)) out[key] = null;
  return out;
}

describe('serialize → parse is lossless', () => {
  for (const kind of builtinEventKinds) {
    it(`for ${kind}: deep equality and identical JSON text`, () => {
      fc.assert(
        fc.property(arbitraryEventOfKind(kind), (event) => {
          const text = serializeEvent(event);
          const again = parseEventJson(text);
          expect(again).toStrictEqual(event);
          expect(serializeEvent(again)).toBe(text);
        }),
        { numRuns: 60 },
      );
      // Seconds alone; the limit is for a full parallel run on 2 shared cores (large generated tool lists).
    }, 120_000);
  }
});

describe('null and missing are the same', () => {
  it('parse(JSON with explicit nulls) equals parse(JSON without them)', () => {
    fc.assert(
      fc.property(arbitraryEvent(), (event) => {
        const json = JSON.parse(serializeEvent(event));
        const withNulls = withExplicitNulls(json);
        expect(JSON.stringify(withNulls)).not.toBe(JSON.stringify(json));
        expect(parseEvent(withNulls)).toStrictEqual(parseEvent(json));
      }),
      { numRuns: 200 },
    );
  });

  it('holds for messages too', () => {
    fc.assert(
      fc.property(arbitraryMessage(), (message) => {
        const json = JSON.parse(JSON.stringify(message));
        expect(messageSchema.parse(json)).toStrictEqual(message);
        expect(
          parseEvent({
            id: 'm',
            timestamp: 't',
            source: 'user',
            llm_message: withExplicitNulls(json),
            kind: 'MessageEvent',
          }),
        ).toStrictEqual(
          parseEvent({ id: 'm', timestamp: 't', source: 'user', llm_message: json, kind: 'MessageEvent' }),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('values are frozen', () => {
  it('throws on mutation in strict mode, at every depth', () => {
    fc.assert(
      fc.property(arbitraryEvent(), (event: AnyEvent) => {
        expect(() => {
          (event as unknown as Record<string, unknown>).id = 'changed';
        }).toThrow(TypeError);
        for (const value of Object.values(event)) {
          if (value !== null && typeof value === 'object') {
            expect(Object.isFrozen(value)).toBe(true);
            expect(() => {
              (value as Record<string, unknown>).added = 1;
            }).toThrow(TypeError);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('opaque events', () => {
  it('serialize back byte-identical (random unknown kinds with random extra JSON)', () => {
    fc.assert(
      fc.property(arbitraryOpaqueEventJson(), (json) => {
        const text = JSON.stringify(json);
        const event = parseEventJson(text);
        expect(event.kind).toBe('OpaqueEvent');
        expect(event.kind === 'OpaqueEvent' && event.opaque_kind).toBe(json.kind);
        expect(serializeEvent(event)).toBe(text);
        expect(serializeEvent(parseEvent(json))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
