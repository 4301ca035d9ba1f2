import { describe, expect, it } from 'vitest';
import { roughJsonLength } from './rough-json-length.js';

/** Values whose strings (keys included) need no escape: the length is exact. */
const plain: unknown[] = [
  'plain',
  '',
  'emoji 😀 and line separators \u2028 \u2029 and \u007f',
  0,
  -1.5,
  1e21,
  1e-7,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  [],
  {},
  [1, 'two', null, undefined, () => 1, { three: 3 }],
  { a: 1, b: undefined, c: () => 1, d: [undefined], e: { f: [] } },
  { when: new Date(0), nested: { toJSON: () => undefined }, kept: 'yes' },
  Object.freeze({
    role: 'tool',
    content: Object.freeze([Object.freeze({ type: 'text', text: 'o'.repeat(2048), cache_prompt: false })]),
    tool_call_id: 'call_1',
    name: 'terminal',
  }),
];

/** Values with strings JSON escapes: each escaped character counts as one. */
const escaped: [unknown, number][] = [
  ['quote " and backslash \\ and newline \n and tab \t', 4],
  ['control \u0001 \u001f', 2],
  ['a lone surrogate \ud800 and \udc00', 2],
  [{ 'k"ey\n': 'v\\' }, 3],
];

describe('roughJsonLength', () => {
  it.each(plain.map((value) => [value]))('is the length of JSON.stringify(%j)', (value) => {
    expect(roughJsonLength(value)).toBe(JSON.stringify(value)?.length);
  });

  it.each(escaped)('counts each character JSON escapes in %j as one', (value, escapes) => {
    const exact = JSON.stringify(value).length;
    const rough = roughJsonLength(value)!;
    expect(rough).toBeLessThan(exact);
    // One backslash per escape, five for a `\uXXXX`: never further off than that.
    expect(rough).toBeGreaterThanOrEqual(exact - 5 * escapes);
  });

  it('counts own members only', () => {
    const inherited = Object.create({ hidden: 'x' }) as Record<string, unknown>;
    inherited.own = 1;
    expect(roughJsonLength(inherited)).toBe(JSON.stringify(inherited).length);
  });

  it('is undefined where JSON.stringify gives undefined', () => {
    expect(roughJsonLength(undefined)).toBeUndefined();
    expect(roughJsonLength(() => 1)).toBeUndefined();
    expect(roughJsonLength(Symbol('s'))).toBeUndefined();
  });
});
