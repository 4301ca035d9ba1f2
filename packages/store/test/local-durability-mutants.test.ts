import { fstatSync, mkdtempSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

/**
 * The inodes fsynced since the last reset, and each one's size then: a change is durable once its file (with all
 * its bytes: an fsync before the write covers none of them) and its directory entry are.
 */
const synced = vi.hoisted(() => ({ inodes: [] as number[], sizes: [] as number[] }));

vi.mock('../src/internal/fs-calls.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/fs-calls.js')>();
  return {
    ...actual,
    fsyncFd: (fd: number) => {
      const { ino, size } = fstatSync(fd);
      synced.inodes.push(ino);
      synced.sizes.push(size);
      return actual.fsyncFd(fd);
    },
  };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-durability-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

beforeEach(() => {
  synced.inodes = [];
  synced.sizes = [];
});

function makeStore(durability?: 'fsync' | 'none') {
  const root = join(base, `${durability ?? 'default'}-${++counter}`);
  const store = createLocalFileStore(durability === undefined ? { root } : { root, durability });
  /** Which of `paths` (files or directories of the store) were fsynced by `change`; a file, once it was whole. */
  const syncedBy = async (change: (store: FileStore) => Promise<unknown>, paths: string[]) => {
    synced.inodes = [];
    synced.sizes = [];
    await change(store);
    return Object.fromEntries(
      paths.map((path) => {
        const info = statSync(join(root, path));
        const whole = (k: number) => info.isDirectory() || synced.sizes[k] === info.size;
        return [path, synced.inodes.some((ino, k) => ino === info.ino && whole(k))];
      }),
    );
  };
  return { store, syncedBy };
}

const all = (paths: string[], value: boolean) => Object.fromEntries(paths.map((path) => [path, value]));

describe('local FileStore durability', () => {
  it('by default fsyncs a changed file and its directory before the change resolves', async () => {
    const { syncedBy } = makeStore();
    expect(await syncedBy((store) => store.write('d/a.json', 'a'), ['d/a.json', 'd'])).toEqual(
      all(['d/a.json', 'd'], true),
    );
    expect(await syncedBy((store) => store.writeIfAbsent('d/b.json', 'b'), ['d/b.json', 'd'])).toEqual(
      all(['d/b.json', 'd'], true),
    );
    // A copy is a hard link of a file already durable: only the new directory entry needs an fsync.
    expect(await syncedBy((store) => store.copy('d/a.json', 'e/c.json'), ['e'])).toEqual({ e: true });
    expect(await syncedBy((store) => store.delete('d/b.json'), ['d'])).toEqual({ d: true });
  });

  it("fsyncs nothing with durability 'none'", async () => {
    const { store } = makeStore('none');
    await store.write('d/a.json', 'a');
    await store.writeIfAbsent('d/b.json', 'b');
    await store.copy('d/a.json', 'e/c.json');
    await store.delete('d/b.json');
    await store.writeIfAbsentThenWrite!({ path: 'c/0.json', data: '0' }, { path: 'f/0.json', data: '0' }, () => {});
    await store.writeIfAbsentThenWriteMany!(
      [{ first: { path: 'g/.slots/0.json', data: '0' }, second: { path: 'g/0.json', data: '0' } }],
      () => {},
    );
    await store.writeIfAbsentThenLinkMany!(
      [
        {
          first: { path: 'h/.slots/0.json', data: '0' },
          body: { path: 'h/.slots/b.json', data: 'b' },
          linkAt: 'h/0.json',
        },
      ],
      () => {},
    );
    expect(synced.inodes).toEqual([]);
  });

  describe('pair writes: `then` is fsynced unless the caller can rebuild it (deferThen)', () => {
    const pairs: Record<string, (store: FileStore, deferThen: boolean) => Promise<unknown>> = {
      writeIfAbsentThenWrite: (store, deferThen) =>
        store.writeIfAbsentThenWrite!(
          { path: 'log/.slots/0.json', data: 'claim' },
          { path: 'log/event-0.json', data: 'event' },
          () => {},
          deferThen ? { deferThen: () => {} } : {},
        ),
      writeIfAbsentThenWriteMany: (store, deferThen) =>
        store.writeIfAbsentThenWriteMany!(
          [
            {
              first: { path: 'log/.slots/0.json', data: 'claim' },
              second: { path: 'log/event-0.json', data: 'event' },
            },
          ],
          () => {},
          deferThen ? { deferThen: () => {} } : {},
        ),
      writeIfAbsentThenLinkMany: (store, deferThen) =>
        store.writeIfAbsentThenLinkMany!(
          [
            {
              first: { path: 'log/.slots/0.json', data: 'claim' },
              body: { path: 'log/.slots/event-0.json', data: 'event' },
              linkAt: 'log/event-0.json',
            },
          ],
          () => {},
          deferThen ? { deferThen: () => {} } : {},
        ),
    };
    for (const [name, write] of Object.entries(pairs)) {
      it(name, async () => {
        const paths = ['log/.slots/0.json', 'log/.slots', 'log'];
        // The directories exist already (creating one makes its parent durable too: see
        // local-durability-new-directory.test.ts), so only the pair's own files and entries count here.
        const durable = makeStore();
        await durable.store.write('log/.slots/seed.json', 'seed');
        const withThen = [...paths, 'log/event-0.json'];
        expect(await durable.syncedBy((store) => write(store, false), withThen)).toEqual(all(withThen, true));
        const deferred = makeStore();
        await deferred.store.write('log/.slots/seed.json', 'seed');
        expect(await deferred.syncedBy((store) => write(store, true), paths)).toEqual({
          'log/.slots/0.json': true,
          'log/.slots': true,
          log: false,
        });
      });
    }
  });
});
