// Without `/proc` (macOS, BSD) the walk uses paths checked with lstat: a durable walk must still fsync the
// parent of each directory it creates, and only those.
import { fstatSync, mkdtempSync, realpathSync, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ConfinedRoot, openDirectory } from '../src/internal/confined-directory.js';

const synced = vi.hoisted(() => ({ inodes: [] as number[] }));

vi.mock('../src/internal/fs-calls.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/fs-calls.js')>();
  return {
    ...actual,
    fsyncFd: (fd: number) => {
      synced.inodes.push(fstatSync(fd).ino);
      return actual.fsyncFd(fd);
    },
  };
});

const base = realpathSync(mkdtempSync(join(tmpdir(), 'x-confined-fallback-')));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

/** The root as it is where `/proc/self/fd` is not available: the path itself. */
function fallbackRoot(realPath: string): ConfinedRoot {
  return { handle: { path: realPath, fd: undefined, close: async () => undefined }, realPath };
}

describe('openDirectory without /proc, durable', () => {
  it('fsyncs the parent of every directory it creates and nothing it merely opens', async () => {
    const path = join(base, 'root');
    await mkdir(join(path, 'kept'), { recursive: true });
    const root = fallbackRoot(path);
    const inode = (relative: string) => statSync(join(path, relative)).ino;

    synced.inodes = [];
    const created = await openDirectory(root, ['kept', 'new', 'deeper'], {
      create: true,
      durable: true,
      storePath: 'p',
    });
    await created!.close();
    expect(synced.inodes.sort()).toEqual([inode('kept'), inode('kept/new')].sort());

    synced.inodes = [];
    const opened = await openDirectory(root, ['kept', 'new', 'deeper'], {
      create: true,
      durable: true,
      storePath: 'p',
    });
    await opened!.close();
    expect(synced.inodes).toEqual([]);
  });
});
