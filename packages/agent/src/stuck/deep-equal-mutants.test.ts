// The structural equality under stuckEventsEqual: JSON values of different shapes are never equal, and a key
// holding undefined is the same as a missing one.
import { describe, expect, it } from 'vitest';
import { deepEqual } from './internal/deep-equal.js';

describe('deepEqual', () => {
  it('never equates an object with a primitive or null, in either order', () => {
    for (const primitive of [1, 'ab', true, null]) {
      expect(deepEqual(primitive, {})).toBe(false);
      expect(deepEqual({}, primitive)).toBe(false);
      expect(deepEqual({ a: 1 }, primitive)).toBe(false);
    }
    expect(deepEqual('ab', { 0: 'a', 1: 'b' })).toBe(false);
    expect(deepEqual({ timeout: null }, { timeout: {} })).toBe(false);
  });

  it('never equates an array with an object that has the same entries', () => {
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual({}, [])).toBe(false);
    expect(deepEqual(['a'], { 0: 'a' })).toBe(false);
    expect(deepEqual({ 0: 'a' }, ['a'])).toBe(false);
    // A tool argument may well be named `length`.
    expect(deepEqual({ 0: 'a', length: 1 }, ['a'])).toBe(false);
    expect(deepEqual(['a'], { 0: 'a', length: 1 })).toBe(false);
  });

  it('compares arrays item by item, length included', () => {
    expect(deepEqual([1, [2, { b: 3 }]], [1, [2, { b: 3 }]])).toBe(true);
    expect(deepEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(deepEqual([1, 2, 3], [1, 2])).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
  });

  it('treats a key holding undefined as absent, and keys of the same count but other names as different', () => {
    expect(deepEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(deepEqual({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(true);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(deepEqual({ a: { b: [1] } }, { a: { b: [2] } })).toBe(false);
  });
});
