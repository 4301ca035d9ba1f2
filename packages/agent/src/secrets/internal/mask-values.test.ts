import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const mask = (text: string, values: string[]) => maskValues(text, values, '<x>');

describe('maskValues', () => {
  it('replaces every occurrence', () => {
    expect(mask('a secret and a secret', ['secret'])).toBe('a <x> and a <x>');
  });

  it('hides a value that contains another one whole', () => {
    expect(mask('token=abc123456', ['abc', 'abc123456'])).toBe('token=<x>');
    expect(mask('abc then abc123456', ['abc123456', 'abc'])).toBe('<x> then <x>');
  });

  it('merges overlapping values into one placeholder, leaving no tail', () => {
    expect(mask('xxabcdefghiyy', ['abcdef', 'defghi'])).toBe('xx<x>yy');
    expect(mask('aaaa', ['aaa'])).toBe('<x>');
  });

  it('never matches inside the placeholder it inserted', () => {
    expect(maskValues('value', ['value', 'hidden'], '<hidden>')).toBe('<hidden>');
  });

  it('leaves text without values untouched and ignores empty values', () => {
    expect(mask('nothing here', ['', 'absent'])).toBe('nothing here');
  });
});
