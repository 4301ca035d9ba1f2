import { describe, expect, it } from 'vitest';
import { InvalidPathError } from './errors/invalid-path-error.js';
import { StoreError } from './errors.js';
import { joinStorePath, validateStorePath } from './store-path.js';

function reasonFor(path: string, options?: { allowTrailingSlash?: boolean }): string {
  try {
    validateStorePath(path, options);
  } catch (error) {
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(InvalidPathError);
    const invalid = error as InvalidPathError;
    expect(invalid.code).toBe('invalid_path');
    expect(invalid.path).toBe(path);
    expect(invalid.message).toContain(JSON.stringify(path));
    return invalid.reason;
  }
  throw new Error(`${JSON.stringify(path)} was accepted`);
}

describe('validateStorePath', () => {
  it('accepts relative slash-separated paths and returns them unchanged', () => {
    for (const path of [
      'a',
      'a/b.json',
      'events/.slots/00001.json',
      '...',
      '..a',
      'a..',
      'é/日本/🎉',
      'with space/x',
    ]) {
      expect(validateStorePath(path)).toBe(path);
    }
  });

  it('accepts a trailing slash and the empty root only for directory prefixes, and strips the slash', () => {
    expect(validateStorePath('dir/', { allowTrailingSlash: true })).toBe('dir');
    expect(validateStorePath('', { allowTrailingSlash: true })).toBe('');
    expect(reasonFor('dir/')).toMatch(/ends with "\/"/);
    expect(reasonFor('')).toMatch(/empty/);
    expect(reasonFor('/', { allowTrailingSlash: true })).toMatch(/absolute/);
    expect(reasonFor('dir//', { allowTrailingSlash: true })).toMatch(/empty segment/);
  });

  it('names why a path was rejected', () => {
    expect(reasonFor('../x')).toMatch(/"\.\." segment/);
    expect(reasonFor('a/../../x')).toMatch(/"\.\." segment/);
    expect(reasonFor('a/..')).toMatch(/"\.\." segment/);
    expect(reasonFor('./x')).toMatch(/"\." segment/);
    expect(reasonFor('/abs')).toMatch(/absolute/);
    expect(reasonFor('a//b')).toMatch(/empty segment/);
    expect(reasonFor('a\\b')).toMatch(/backslash/);
    expect(reasonFor('..\\x')).toMatch(/backslash/);
    expect(reasonFor('a\0b')).toMatch(/NUL/);
    expect(reasonFor('a\uD800')).toMatch(/lone UTF-16 surrogate/);
    expect(reasonFor('\uDC00/x')).toMatch(/lone UTF-16 surrogate/);
    expect(reasonFor('x/\uDF89\uD83C')).toMatch(/lone UTF-16 surrogate/);
  });

  it('rejects non-strings that slip past the types', () => {
    expect(() => validateStorePath(42 as unknown as string)).toThrow(/expected a string, got number/);
  });
});

describe('joinStorePath', () => {
  it('puts a child of the root at the top level and a child of a directory under it', () => {
    expect(joinStorePath('', 'a.json')).toBe('a.json');
    expect(joinStorePath('dir', 'a.json')).toBe('dir/a.json');
    expect(joinStorePath('dir/sub', 'a.json')).toBe('dir/sub/a.json');
  });
});
