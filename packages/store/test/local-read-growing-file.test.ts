// A file read by the local store (src/internal/regular-file.ts) that fstat found empty but that holds bytes by the
// time it is read (a writer appending to it in place, or a file system that reports no size) is read to its end,
// not cut to the size fstat gave. Both reads are held to it: the synchronous one (durability 'none') and the one
// through the thread pool (durable). fstat is made to answer 0 for the file under test.
import type { Stats } from 'node:fs';
import { mkdtempSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLocalFileStore } from '../src/local-file-store.js';

/** The inode whose fstat answers size 0. */
const emptied = vi.hoisted(() => ({ ino: -1 }));

const reportedEmpty = (stats: Stats): Stats =>
  stats.ino === emptied.ino ? Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, { size: 0 }) : stats;

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, fstatSync: (fd: number) => reportedEmpty(actual.fstatSync(fd)) };
});

vi.mock('../src/internal/fs-calls.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/fs-calls.js')>();
  return { ...actual, fstatFd: async (fd: number) => reportedEmpty(await actual.fstatFd(fd)) };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-growing-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

describe('a local read of a file fstat reports empty', () => {
  for (const durability of ['none', 'fsync'] as const) {
    it(`reads every byte the file holds (durability '${durability}')`, async () => {
      const root = join(base, durability);
      const store = createLocalFileStore({ root, durability });
      // Longer than the buffer doubles a few times from its first byte.
      const text = `${'grown in place; '.repeat(40)}end`;
      await store.write('d/file.json', text);
      emptied.ino = statSync(join(root, 'd/file.json')).ino;
      expect(await store.read('d/file.json')).toBe(text);
    });
  }
});
