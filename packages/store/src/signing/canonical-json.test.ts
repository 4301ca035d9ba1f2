import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

// The bytes a signature covers: two parties that hold the same value must produce the same text, whatever order
// its keys were built in (RFC 8785's key order and number and string forms).

describe('canonicalJson', () => {
  it('sorts keys at every level, whatever order they were built in', () => {
    const built = { c: 1, b: { z: true, y: [3, { k: 2, j: 1 }] }, a: 'x' };
    expect(canonicalJson(built)).toBe('{"a":"x","b":{"y":[3,{"j":1,"k":2}],"z":true},"c":1}');
    expect(canonicalJson({ a: 'x', c: 1, b: built.b })).toBe(canonicalJson(built));
  });

  it('sorts keys by UTF-16 code units, not by locale or code point', () => {
    const keys = ['\uFFFF', '\u{1F600}', 'b', 'é', 'B', '10', '9', ''];
    const value = Object.fromEntries(keys.map((key, position) => [key, position]));
    // The emoji's high surrogate (0xD83D) sorts before U+FFFF, though its code point is higher.
    expect(canonicalJson(value)).toBe('{"":7,"10":5,"9":6,"B":4,"b":2,"é":3,"\u{1F600}":1,"\uFFFF":0}');
  });

  it('keeps falsy array items, writes missing ones as null, and leaves out undefined object values', () => {
    expect(canonicalJson([0, false, '', null, undefined])).toBe('[0,false,"",null,null]');
    expect(canonicalJson({ zero: 0, no: false, empty: '', none: null, gone: undefined })).toBe(
      '{"empty":"","no":false,"none":null,"zero":0}',
    );
  });

  it('writes numbers and strings as JSON.stringify does', () => {
    expect(canonicalJson({ n: [1e21, 0.1, -0, 5e-7], s: 'a"\\\n\u0001' })).toBe(
      '{"n":[1e+21,0.1,0,5e-7],"s":"a\\"\\\\\\n\\u0001"}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });
});
