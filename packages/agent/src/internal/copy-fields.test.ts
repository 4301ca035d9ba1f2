import { describe, expect, it } from 'vitest';
import { copyFields } from './copy-fields.js';

describe('copyFields', () => {
  it('copies own enumerable fields in order, sharing nothing at the top level', () => {
    const source = { b: 1, a: { nested: true } };
    const copy = copyFields(source);
    expect(copy).not.toBe(source);
    expect(Object.keys(copy)).toEqual(['b', 'a']);
    expect(copy.a).toBe(source.a);
  });

  it('keeps a __proto__ field a field', () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = copyFields(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
  });
});
