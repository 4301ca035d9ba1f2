import { describe, expect, it } from 'vitest';
import { ownEntry, setOwnEntry } from './own-entries.js';

const INHERITED_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

describe('ownEntry', () => {
  it('finds nothing under a name only Object.prototype has', () => {
    for (const name of INHERITED_NAMES) expect(ownEntry({ a: 1 }, name)).toBeUndefined();
  });

  it("finds an own entry of any name (JSON.parse's __proto__ key included)", () => {
    const record = JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3, "hasOwnProperty": 4}');
    expect(INHERITED_NAMES.map((name) => ownEntry(record, name))).toEqual([1, 2, 3, 4]);
  });
});

describe('setOwnEntry', () => {
  it('adds every name as an own key and leaves the prototype alone', () => {
    const target: Record<string, unknown> = {};
    for (const name of INHERITED_NAMES) setOwnEntry(target, name, { name });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(INHERITED_NAMES);
    expect(JSON.stringify(target)).toBe(
      '{"__proto__":{"name":"__proto__"},"constructor":{"name":"constructor"},"toString":{"name":"toString"},"hasOwnProperty":{"name":"hasOwnProperty"}}',
    );
  });

  it('replaces an own __proto__ entry', () => {
    const target: Record<string, number> = {};
    setOwnEntry(target, '__proto__', 1);
    setOwnEntry(target, '__proto__', 2);
    expect(Object.entries(target)).toEqual([['__proto__', 2]]);
  });

  it('leaves an own __proto__ entry as a plain field: assignable and deletable like any other', () => {
    const target: Record<string, number> = {};
    setOwnEntry(target, '__proto__', 1);
    Reflect.set(target, '__proto__', 3);
    expect(Object.entries(target)).toEqual([['__proto__', 3]]);
    Reflect.deleteProperty(target, '__proto__');
    expect(Object.keys(target)).toEqual([]);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
  });
});
