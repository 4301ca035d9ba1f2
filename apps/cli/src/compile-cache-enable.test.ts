import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enableCliCompileCache } from './compile-cache.js';

// enableCliCompileCache with a stand-in for `node:module`'s compile cache API: every branch is decided in process,
// and no real cache is turned on for the test worker.
const CODES = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function cacheHome(): string {
  const root = mkdtempSync(join(tmpdir(), 'x-compile-cache-'));
  roots.push(root);
  return root;
}

function recordingApi(result: { status: number; message?: string; directory?: string }) {
  const calls: string[] = [];
  return {
    calls,
    api: {
      enableCompileCache: (directory: string) => {
        calls.push(directory);
        return result;
      },
      constants: { compileCacheStatus: CODES },
    },
  };
}

describe('enableCliCompileCache', () => {
  it('is unsupported without enableCompileCache (Node 20), whatever the environment says', () => {
    expect(enableCliCompileCache({ NODE_COMPILE_CACHE: '/c' }, {})).toEqual({ status: 'unsupported' });
  });

  it('is disabled by NODE_DISABLE_COMPILE_CACHE, even when empty, before anything is created', () => {
    const home = cacheHome();
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    for (const value of ['1', '']) {
      const result = enableCliCompileCache({ NODE_DISABLE_COMPILE_CACHE: value, XDG_CACHE_HOME: home }, api);
      expect(result).toEqual({ status: 'disabled', message: 'Disabled by NODE_DISABLE_COMPILE_CACHE' });
    }
    expect(calls).toEqual([]);
    expect(() => statSync(join(home, 'x'))).toThrow();
  });

  it("reports the user's NODE_COMPILE_CACHE as Node reports it, never enabling x's directory", () => {
    const home = cacheHome();
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    const env = { NODE_COMPILE_CACHE: '/user/cache', XDG_CACHE_HOME: home };
    // Node before 22.8 cannot tell which directory it uses: the user's is reported.
    expect(enableCliCompileCache(env, api)).toEqual({ status: 'already-enabled', directory: '/user/cache' });
    expect(enableCliCompileCache(env, { ...api, getCompileCacheDir: () => '/resolved/cache' })).toEqual({
      status: 'already-enabled',
      directory: '/resolved/cache',
    });
    expect(enableCliCompileCache(env, { ...api, getCompileCacheDir: () => undefined })).toEqual({
      status: 'failed',
      message: 'Node could not use NODE_COMPILE_CACHE=/user/cache',
    });
    expect(calls).toEqual([]);
    expect(() => statSync(join(home, 'x'))).toThrow();
  });

  it("treats an empty NODE_COMPILE_CACHE as unset: x's own directory is enabled", () => {
    const home = cacheHome();
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    const result = enableCliCompileCache({ NODE_COMPILE_CACHE: '', XDG_CACHE_HOME: home }, api);
    const directory = join(home, 'x', 'compile-cache');
    expect(result).toEqual({ status: 'enabled', directory });
    expect(calls).toEqual([directory]);
  });

  it('creates the directory for its user only and reports the directory Node names', () => {
    const home = cacheHome();
    const directory = join(home, 'x', 'compile-cache');
    const { api } = recordingApi({ status: CODES.ENABLED, directory: '/as/node/says' });
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, api)).toEqual({
      status: 'enabled',
      directory: '/as/node/says',
    });
    expect(statSync(directory).isDirectory()).toBe(true);
    expect(statSync(directory).mode & 0o077).toBe(0);
  });

  it('fails with no absolute home directory to keep the cache in', () => {
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    const home = process.env.HOME;
    try {
      // os.homedir() answers $HOME when set: a relative one is no place for a cache.
      process.env.HOME = 'relative-home';
      expect(enableCliCompileCache({ XDG_CACHE_HOME: 'relative-cache' }, api)).toEqual({
        status: 'failed',
        message: 'no home directory to keep the cache in',
      });
    } finally {
      if (home === undefined) delete process.env.HOME;
      else process.env.HOME = home;
    }
    expect(calls).toEqual([]);
  });

  it('fails, without enabling, when the directory is writable by other users', () => {
    const home = cacheHome();
    const directory = join(home, 'x', 'compile-cache');
    mkdirSync(directory, { recursive: true });
    chmodSync(directory, 0o777);
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, api)).toEqual({
      status: 'failed',
      message: `${directory} is writable by other users`,
    });
    expect(calls).toEqual([]);
    chmodSync(directory, 0o755);
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, api).status).toBe('enabled');
  });

  it('fails, without enabling, when the directory belongs to another user', () => {
    const home = cacheHome();
    const directory = join(home, 'x', 'compile-cache');
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const owner = statSync(directory).uid;
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    // Judged as another user would judge it (only root could hand the directory over for real).
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, api, owner + 1)).toEqual({
      status: 'failed',
      message: `${directory} belongs to another user (uid ${owner})`,
    });
    expect(calls).toEqual([]);
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, api, owner).status).toBe('enabled');
  });

  it('fails when the directory cannot be created', () => {
    const home = cacheHome();
    // `x` is a file: no user, root included, can make a directory inside it.
    writeFileSync(join(home, 'x'), '');
    const { api, calls } = recordingApi({ status: CODES.ENABLED });
    const result = enableCliCompileCache({ XDG_CACHE_HOME: home }, api);
    expect(result.status).toBe('failed');
    expect(result.message).toMatch(/^cannot create .*compile-cache: /);
    expect(calls).toEqual([]);
  });

  it("fails with Node's message, or its status code, when Node does not enable it", () => {
    const home = cacheHome();
    const refused = recordingApi({ status: CODES.FAILED, message: 'no space' });
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, refused.api)).toEqual({
      status: 'failed',
      message: 'no space',
    });
    const silent = recordingApi({ status: CODES.DISABLED });
    expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, silent.api)).toEqual({
      status: 'failed',
      message: `status ${CODES.DISABLED}`,
    });
  });

  it('fails, never throws, when enabling throws; the environment is left as it was either way', () => {
    const home = cacheHome();
    const before = process.env.NODE_COMPILE_CACHE;
    try {
      delete process.env.NODE_COMPILE_CACHE;
      const throwing = {
        enableCompileCache: (directory: string) => {
          process.env.NODE_COMPILE_CACHE = directory;
          throw new Error('boom');
        },
        constants: { compileCacheStatus: CODES },
      };
      expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, throwing)).toEqual({ status: 'failed', message: 'boom' });
      expect(process.env.NODE_COMPILE_CACHE).toBeUndefined();

      process.env.NODE_COMPILE_CACHE = '/kept';
      const exporting = {
        enableCompileCache: (directory: string) => {
          process.env.NODE_COMPILE_CACHE = directory;
          return { status: CODES.ENABLED };
        },
        constants: { compileCacheStatus: CODES },
      };
      // The environment names a user directory, but the caller's `env` (what Node saw at start-up) does not.
      expect(enableCliCompileCache({ XDG_CACHE_HOME: home }, exporting).status).toBe('enabled');
      expect(process.env.NODE_COMPILE_CACHE).toBe('/kept');
    } finally {
      if (before === undefined) delete process.env.NODE_COMPILE_CACHE;
      else process.env.NODE_COMPILE_CACHE = before;
    }
  });
});
