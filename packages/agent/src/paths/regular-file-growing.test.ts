import type { Stats } from 'node:fs';
import { mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openVerifiedDirectory, readRegularFile, type VerifiedDirectory, WorkspacePathError } from './index.js';

// A file that grows after it was checked (another process appending to it) is read up to the limit and no
// further: `readRegularFile` never holds more than `maxBytes` + 1 bytes of it. The descriptor's stat is made to
// answer the size the file had when checked, so the growth falls between the check and the read.

/** The inode whose descriptor's stat answers `size` (the size before the file grew), and the bytes read of it. */
const checked = vi.hoisted(() => ({ ino: -1, size: 0, bytesRead: 0 }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const shrunk = (stats: Stats): Stats =>
    stats.ino === checked.ino
      ? Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, { size: checked.size })
      : stats;
  return {
    ...actual,
    lstat: async (path: string) => shrunk(await actual.lstat(path)),
    open: async (...args: Parameters<typeof actual.open>) => {
      const handle = await actual.open(...args);
      const [stat, read] = [handle.stat.bind(handle), handle.read.bind(handle)];
      handle.stat = (async () => shrunk(await stat())) as typeof handle.stat;
      handle.read = (async (...readArgs: Parameters<typeof read>) => {
        const result = await read(...readArgs);
        checked.bytesRead += result.bytesRead;
        return result;
      }) as typeof handle.read;
      return handle;
    },
  };
});

let root: string;
let directory: VerifiedDirectory;
const grown = 'x'.repeat(1000);
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-regular-file-growing-')));
  await writeFile(join(root, 'grown.txt'), grown);
  checked.ino = (await stat(join(root, 'grown.txt'))).ino;
  checked.size = 3;
  directory = await openVerifiedDirectory(root, root, '.');
});
afterAll(async () => {
  await directory.close();
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('readRegularFile of a file that grew after it was checked', () => {
  it('reads all of it while it stays within the limit, its last allowed byte included', async () => {
    expect(await readRegularFile(directory, 'grown.txt', { shown: 'grown.txt', maxBytes: 5000 })).toBe(grown);
    expect(await readRegularFile(directory, 'grown.txt', { shown: 'grown.txt', maxBytes: 1000 })).toBe(grown);
  });

  it('refuses it once it grew over the limit, having read one byte past the limit and no more', async () => {
    checked.bytesRead = 0;
    const error = await readRegularFile(directory, 'grown.txt', { shown: 'grown.txt', maxBytes: 99 }).catch(
      (caught: unknown) => caught,
    );
    expect(WorkspacePathError.isInstance(error) && [error.problem, error.message]).toEqual([
      'too_large',
      "Invalid path 'grown.txt': it grew over the limit of 99 bytes.",
    ]);
    expect(checked.bytesRead).toBe(100);
  });
});
