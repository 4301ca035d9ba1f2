import { describe, expect, it } from 'vitest';
import { compileCacheDirectory } from './compile-cache.js';

describe('compileCacheDirectory', () => {
  it('is $XDG_CACHE_HOME/x/compile-cache, else ~/.cache/x/compile-cache', () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: '/c' }, '/home/me')).toBe('/c/x/compile-cache');
    expect(compileCacheDirectory({}, '/home/me')).toBe('/home/me/.cache/x/compile-cache');
  });

  it('never follows X_HOME, and ignores a relative XDG_CACHE_HOME (it would land in the working directory)', () => {
    expect(compileCacheDirectory({ X_HOME: '/srv/x' }, '/home/me')).toBe('/home/me/.cache/x/compile-cache');
    expect(compileCacheDirectory({ XDG_CACHE_HOME: 'cache' }, '/home/me')).toBe('/home/me/.cache/x/compile-cache');
    expect(compileCacheDirectory({ XDG_CACHE_HOME: '' }, '/home/me')).toBe('/home/me/.cache/x/compile-cache');
  });

  it('is undefined without an absolute home directory', () => {
    expect(compileCacheDirectory({}, '')).toBeUndefined();
    expect(compileCacheDirectory({}, 'relative')).toBeUndefined();
  });
});
