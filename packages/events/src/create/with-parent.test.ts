import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setOwn } from '../json/format-path.js';
import { serializeEvent } from '../json/serialize-event.js';
import { arbitraryEvent } from '../testing/event-arbitraries.js';
import { insertParent, withParent } from './with-parent.js';

/** `insertParent` as it was (walking `Object.entries`): the new one must give the same object, key for key. */
function insertParentByEntries(object: Readonly<Record<string, unknown>>, parentId: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const [key, value] of Object.entries(object)) {
    if (key === 'parent_id') continue;
    setOwn(out, key, value);
    if (key === 'source') {
      out.parent_id = parentId;
      placed = true;
    }
  }
  if (placed) return out;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(out)) {
    setOwn(result, key, value);
    if (key === 'timestamp') result.parent_id = parentId;
  }
  return Object.hasOwn(result, 'parent_id') ? result : { parent_id: parentId, ...result };
}

/** Own keys in order with their values (identity), which `toEqual` alone would not compare. */
function fields(object: Record<string, unknown>): [string, unknown][] {
  return Object.keys(object).map((key) => [key, object[key]]);
}

const fieldName = fc.oneof(
  fc.constantFrom('source', 'timestamp', 'parent_id', 'id', 'kind', '__proto__', 'constructor', '0', '10'),
  fc.string({ maxLength: 6 }),
);

/** Objects built key by key (so `__proto__` is an own field, as JSON.parse makes it), in any order. */
const arbitraryFields = fc.array(fc.tuple(fieldName, fc.jsonValue({ maxDepth: 2 })), { maxLength: 12 }).map((pairs) => {
  const object: Record<string, unknown> = {};
  for (const [key, value] of pairs) setOwn(object, key, value);
  return object;
});

describe('insertParent', () => {
  it('gives what the Object.entries walk gave: same keys in the same order, same values', () => {
    fc.assert(
      fc.property(arbitraryFields, fc.string({ minLength: 1, maxLength: 8 }), (object, parentId) => {
        const expected = insertParentByEntries(object, parentId);
        const actual = insertParent(object, parentId);
        expect(fields(actual)).toEqual(fields(expected));
        expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('re-parents random events to the same text as before', () => {
    fc.assert(
      fc.property(arbitraryEvent(), (event) => {
        const copy = withParent(event, 'parent-x');
        const expected = insertParentByEntries(event as unknown as Record<string, unknown>, 'parent-x');
        if (event.kind === 'OpaqueEvent') expected.json = insertParentByEntries(event.json, 'parent-x');
        expect(fields(copy as unknown as Record<string, unknown>)).toEqual(fields(expected));
        expect(serializeEvent(copy)).toBe(serializeEvent(expected as never));
      }),
      { numRuns: 300 },
    );
  });
});
