// A durable write into a directory the write creates is on disk only once that directory's own entry is: the
// store fsyncs the parent of each directory it creates (and nothing more when the directories exist).
import { fstatSync, mkdtempSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

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

const base = mkdtempSync(join(tmpdir(), 'x-store-new-directory-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

function rootFor(durability: 'fsync' | 'none'): string {
  return join(base, `${durability}-${++counter}`);
}
const fsynced = (root: string, path: string) => synced.inodes.includes(statSync(join(root, path)).ino);

describe('a durable write into new directories', () => {
  it('fsyncs the parent of every directory it creates', async () => {
    const root = rootFor('fsync');
    const store = createLocalFileStore({ root, durability: 'fsync' });
    synced.inodes = [];
    await store.write('conversation/events/a.json', 'a');
    expect([fsynced(root, ''), fsynced(root, 'conversation'), fsynced(root, 'conversation/events')]).toEqual([
      true,
      true,
      true,
    ]);

    // The directories exist now: only the written file's own directory entry is made durable.
    synced.inodes = [];
    await store.write('conversation/events/b.json', 'b');
    expect([fsynced(root, ''), fsynced(root, 'conversation'), fsynced(root, 'conversation/events')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  it('does the same for the first append of an event log, whose directories it creates', async () => {
    const root = rootFor('fsync');
    const store = createLocalFileStore({ root, durability: 'fsync' });
    const log = await EventLog.open(store, { dir: 'conversation/events' });
    synced.inodes = [];
    await log.append(userMessageEvent('first'));
    expect([fsynced(root, ''), fsynced(root, 'conversation')]).toEqual([true, true]);
    await log.close();
  });

  it("fsyncs no parent with durability 'none'", async () => {
    const root = rootFor('none');
    const store = createLocalFileStore({ root, durability: 'none' });
    synced.inodes = [];
    await store.write('conversation/events/a.json', 'a');
    expect(synced.inodes).toEqual([]);
  });
});
