import { describe, expect, it } from 'vitest';
import { isStartupVariable, splitCommandEnvironment } from './host-side-environment.js';

describe('splitCommandEnvironment', () => {
  it("keeps the loader's, libc's and shells' start-up variables for inside the sandbox only", () => {
    const { host, inside } = splitCommandEnvironment({
      PATH: '/usr/bin:/bin',
      HOME: '/ws',
      GITHUB_TOKEN: 'ghp-1',
      LD_PRELOAD: '/ws/evil.so',
      LD_LIBRARY_PATH: '/ws/lib',
      GLIBC_TUNABLES: 'glibc.malloc.check=3',
      MALLOC_CHECK_: '3',
      BASH_ENV: '/ws/rc',
      'BASH_FUNC_echo%%': '() { :; }',
      ENV: '/ws/rc',
      SHELLOPTS: 'xtrace',
      GCONV_PATH: '/ws/gconv',
      LANG: 'C.UTF-8',
      LC_ALL: '/ws/locale',
      LANGUAGE: 'en',
      TZ: '/ws/zone',
    });
    expect(host).toEqual({ PATH: '/usr/bin:/bin', HOME: '/ws', GITHUB_TOKEN: 'ghp-1' });
    expect(Object.keys(inside).sort()).toEqual(
      [
        'BASH_ENV',
        'BASH_FUNC_echo%%',
        'ENV',
        'GCONV_PATH',
        'GLIBC_TUNABLES',
        'LANG',
        'LANGUAGE',
        'LC_ALL',
        'LD_LIBRARY_PATH',
        'LD_PRELOAD',
        'MALLOC_CHECK_',
        'SHELLOPTS',
        'TZ',
      ].sort(),
    );
  });

  it('keeps names of Object.prototype members as own keys, `__proto__` included', () => {
    // JSON.parse makes `__proto__` an own key; an object literal would set the prototype instead.
    const env = JSON.parse('{"__proto__":"V","constructor":"W","toString":"X","hasOwnProperty":"Y","LC_ALL":"C"}');
    const { host, inside } = splitCommandEnvironment(env);
    expect(Object.entries(host)).toEqual([
      ['__proto__', 'V'],
      ['constructor', 'W'],
      ['toString', 'X'],
      ['hasOwnProperty', 'Y'],
    ]);
    expect(Object.getPrototypeOf(host)).toBe(Object.prototype);
    expect(Object.entries(inside)).toEqual([['LC_ALL', 'C']]);
  });

  it('leaves ordinary variables alone', () => {
    for (const name of ['PATH', 'HOME', 'TMPDIR', 'NODE_OPTIONS', 'PYTHONPATH', 'LDFLAGS', 'LCOV', 'LANGFUSE_HOST'])
      expect(isStartupVariable(name), name).toBe(false);
  });
});
