import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../src/errors.js';
import { createLocalFileStore } from '../src/local-file-store.js';

const base = mkdtempSync(join(tmpdir(), 'x-store-local-mutants-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

/** Descriptors this process holds open (Linux: one entry each in /proc/self/fd). */
const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('local FileStore resources', () => {
  for (const durability of ['fsync', 'none'] as const) {
    it(`closes every directory it opens (durability: ${durability})`, async () => {
      const store = createLocalFileStore({ root: join(base, durability), durability });
      const rounds = 40;
      // One round first, so descriptors opened once per process (the root's) are already counted.
      const round = async (i: number) => {
        const path = `deep/dir/${i}.json`;
        await store.write(path, `${i}`);
        expect(await store.writeIfAbsent(path, 'again')).toBe(false);
        expect(await store.read(path)).toBe(`${i}`);
        expect(await store.exists(path)).toBe(true);
        expect(await store.list('deep/dir')).toContain(path);
        expect(await store.listUnordered!('deep/dir/')).toContain(path);
        expect(await store.listingVersion!('deep/dir')).toBeTypeOf('string');
        await store.copy(path, `deep/copies/${i}.json`);
        await store.delete(path);
        expect(await store.readBatch!([`deep/copies/${i}.json`])).toHaveLength(1);
      };
      await round(-1);
      const before = openDescriptors();
      for (let i = 0; i < rounds; i++) await round(i);
      // Each round opens at least ten directory descriptors: a leak of any one would show here many times over.
      expect(openDescriptors() - before).toBeLessThan(rounds / 2);
    });
  }
});

describe('local FileStore listing versions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits with a settled version until the directory’s change is older than the ctime clock’s tick', async () => {
    const root = join(base, 'settled');
    const store = createLocalFileStore({ root, durability: 'none' });
    await store.write('d/a.json', '1');
    // The clock stands at the moment of the change, so the change is as fresh as can be.
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    vi.setSystemTime(Number(statSync(join(root, 'd'), { bigint: true }).ctimeNs / 1_000_000n));
    const plain = await store.listingVersion!('d');
    let settled: string | undefined;
    const settling = store.listingVersion!('d', { settled: true }).then((version) => {
      settled = version;
    });
    // The durability 'none' store stats synchronously: only the wait is left once these turns have passed.
    for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    await settling;
    expect(settled).toBe(plain);
  });
});

describe('local FileStore root', () => {
  const home = process.env.HOME;
  afterEach(() => {
    process.env.HOME = home;
  });

  it('expands `~` and `~/…` to the home directory', async () => {
    const fakeHome = join(base, 'home');
    process.env.HOME = fakeHome;
    const atHome = createLocalFileStore({ root: '~', durability: 'none' });
    const below = createLocalFileStore({ root: '~/stores/one', durability: 'none' });
    expect(atHome.describe('a.json')).toBe(join(fakeHome, 'a.json'));
    await below.write('a.json', 'below');
    expect(await atHome.read('stores/one/a.json')).toBe('below');
  });
});

describe('local FileStore temp-file names', () => {
  it('refuses them for exists and delete as for read and write, so an in-progress write is left alone', async () => {
    const root = join(base, 'temps');
    const store = createLocalFileStore({ root, durability: 'none' });
    // What a write in progress (in this or another process) has on disk before its rename.
    const temp = '.a.json.tmp-123-0123456789ab';
    await mkdir(join(root, 'd'), { recursive: true });
    await writeFile(join(root, 'd', temp), 'partial');
    for (const action of [() => store.exists(`d/${temp}`), () => store.delete(`d/${temp}`)]) {
      const error = await action().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(StoreError.isInstance(error) && error.code).toBe('invalid_path');
    }
    expect(await readdir(join(root, 'd'))).toEqual([temp]);
  });
});

describe('local FileStore copy from a missing source', () => {
  it('is file_not_found and leaves nothing behind: no directory of the source, no target', async () => {
    const root = join(base, 'copy-missing');
    const store = createLocalFileStore({ root, durability: 'none' });
    await store.write('kept.json', '1');
    const error = await store.copy('gone/deeper/a.json', 'target/a.json').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(StoreError.isInstance(error) && error.code).toBe('file_not_found');
    expect(await store.list('')).toEqual(['kept.json']);
    expect(await readdir(root)).toEqual(['kept.json']);
  });
});
