import { describe, expect, it } from 'vitest';
import { parseToolCallArguments } from './parse-arguments.js';

describe('parseToolCallArguments and keys named like inherited properties', () => {
  it('keeps a __proto__ key as an own field: its fields never read as arguments, the prototype stays Object.prototype', () => {
    for (const raw of [
      '{"__proto__": {"command": "rm -rf /", "security_risk": "LOW"}, "path": "/tmp"}',
      '{"__proto__": {"command": "rm -rf /"}, "path": null}',
      '{"security_rort": "LOW", "__proto__": {"command": "rm -rf /"}}',
    ]) {
      const parsed = parseToolCallArguments(raw);
      expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
      expect(parsed.command).toBeUndefined();
      expect(Object.keys(parsed)).toContain('__proto__');
      expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    }
  });

  it('keeps constructor and toString as the arguments they are', () => {
    const parsed = parseToolCallArguments('{"constructor": "c", "toString": null, "hasOwnProperty": 1}');
    expect(parsed).toEqual({ constructor: 'c', hasOwnProperty: 1 });
    expect(Object.keys(parsed)).toEqual(['constructor', 'hasOwnProperty']);
  });
});
