// A durable local AppendFile (src/internal/local-append-file.ts): each append is on disk (one fdatasync after its
// write) before it resolves, and a new file's directory entry is made durable once, when the file is created. With
// durability 'none' neither is synced.
import { fstatSync, mkdtempSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalFileStore } from '../src/local-file-store.js';

/** Each sync: the inode, and the file's size when it was synced (what the sync covers). */
const synced = vi.hoisted(() => ({ calls: [] as { ino: number; size: number }[] }));

vi.mock('../src/internal/fs-calls.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/fs-calls.js')>();
  const record = (fd: number) => {
    const { ino, size } = fstatSync(fd);
    synced.calls.push({ ino, size });
  };
  return {
    ...actual,
    fsyncFd: (fd: number) => {
      record(fd);
      return actual.fsyncFd(fd);
    },
    fdatasyncFd: (fd: number) => {
      record(fd);
      return actual.fdatasyncFd(fd);
    },
  };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-append-durability-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

beforeEach(() => {
  synced.calls = [];
});

function newStore(durability: 'fsync' | 'none') {
  const root = join(base, `${durability}-${++counter}`);
  return { root, store: createLocalFileStore({ root, durability }) };
}

const bytes = (text: string) => new TextEncoder().encode(text);
/** The sizes at which `path` was synced since the last reset. */
const syncedSizes = (root: string, path: string) => {
  const { ino } = statSync(join(root, path));
  return synced.calls.filter((call) => call.ino === ino).map((call) => call.size);
};

describe('a durable local AppendFile', () => {
  it('syncs each append after its write, before the append resolves', async () => {
    const { root, store } = newStore('fsync');
    const file = await store.openAppendFile!('log/segment');
    synced.calls = [];
    expect(await file.append(bytes('one;'))).toBe(4);
    expect(syncedSizes(root, 'log/segment')).toEqual([4]);
    expect(await file.append(bytes('two;'))).toBe(8);
    expect(syncedSizes(root, 'log/segment')).toEqual([4, 8]);
    await file.close();
  });

  it("makes a new file's directory entry durable when it creates it, and not when the file exists", async () => {
    const { root, store } = newStore('fsync');
    const created = await store.openAppendFile!('log/segment');
    expect(syncedSizes(root, 'log')).toHaveLength(1);
    await created.close();

    synced.calls = [];
    const reopened = await store.openAppendFile!('log/segment');
    expect(syncedSizes(root, 'log')).toEqual([]);
    await reopened.close();
  });

  it("syncs nothing with durability 'none'", async () => {
    const { store } = newStore('none');
    const file = await store.openAppendFile!('log/segment');
    await file.append(bytes('one;'));
    await file.close();
    expect(synced.calls).toEqual([]);
  });
});
