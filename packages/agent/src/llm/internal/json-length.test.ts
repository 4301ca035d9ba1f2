import { describe, expect, it } from 'vitest';
import { jsonLength } from './json-length.js';

const samples: unknown[] = [
  'plain',
  '',
  'quote " and backslash \\ and newline \n and tab \t',
  'control \u0001 \u001f and \u007f',
  'emoji 😀 and a lone surrogate \ud800 and \udc00',
  'line separators \u2028 \u2029',
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
  { a: 1, b: undefined, c: () => 1, d: [undefined], 'k"ey\n': 'v', e: { f: [] } },
  { when: new Date(0), nested: { toJSON: () => undefined }, kept: 'yes' },
  {
    role: 'tool',
    content: [{ type: 'text', text: 'o'.repeat(2048), cache_prompt: false }],
    tool_call_id: 'call_1',
    name: 'terminal',
  },
];

describe('jsonLength', () => {
  it.each(samples.map((value) => [value]))('is the length of JSON.stringify(%j)', (value) => {
    expect(jsonLength(value)).toBe(JSON.stringify(value)?.length);
  });

  it('is undefined where JSON.stringify gives undefined', () => {
    expect(jsonLength(undefined)).toBeUndefined();
    expect(jsonLength(() => 1)).toBeUndefined();
    expect(jsonLength(Symbol('s'))).toBeUndefined();
  });
});
