import { mkdtempSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { describeFileStoreContract } from '../src/testing/file-store-contract.js';

const base = mkdtempSync(join(tmpdir(), 'x-store-local-'));
let counter = 0;
const roots = new WeakMap<FileStore, string>();

afterAll(async () => {
  await rm(base, { recursive: true, force: true, maxRetries: 5 });
});

function makeStore(durability: 'fsync' | 'none'): FileStore {
  const root = join(base, `${durability}-${++counter}`);
  const store = createLocalFileStore({ root, durability });
  roots.set(store, root);
  return store;
}

function rootOf(store: FileStore): string {
  const root = roots.get(store);
  if (root === undefined) throw new Error('store was not made by this test file');
  return root;
}

for (const durability of ['fsync', 'none'] as const) {
  describeFileStoreContract(`local (durability: ${durability})`, () => makeStore(durability), {
    cleanup: (store) => rm(rootOf(store), { recursive: true, force: true, maxRetries: 5 }),
    reopen: (store) => createLocalFileStore({ root: rootOf(store), durability }),
    listingVersion: true,
  });
}

async function caught(action: () => Promise<unknown>): Promise<StoreError> {
  const error = await action().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

describe('local FileStore', () => {
  it('creates a missing root, stores plain files under it and describes them by absolute path', async () => {
    const root = join(base, 'fresh', 'nested', 'root');
    const store = createLocalFileStore({ root });
    await store.write('conversations/abc/base_state.json', '{}');
    expect(await readFile(join(root, 'conversations', 'abc', 'base_state.json'), 'utf8')).toBe('{}');
    expect(store.describe('conversations/abc')).toBe(join(root, 'conversations', 'abc'));
  });

  it('gives the listing version as dev:ino:ctime of the directory, the same when settled', async () => {
    for (const durability of ['fsync', 'none'] as const) {
      const store = makeStore(durability);
      await store.write('versions/a.json', '1');
      const info = statSync(join(rootOf(store), 'versions'), { bigint: true });
      const settled = await store.listingVersion!('versions', { settled: true });
      expect(settled).toBe(`${info.dev}:${info.ino}:${info.ctimeNs}`);
      expect(await store.listingVersion!('versions')).toBe(settled);
      await utimes(join(rootOf(store), 'versions'), new Date(0), new Date(0));
      // Setting the times (mtime) changes ctime too: the version moves, to the safe side.
      expect(await store.listingVersion!('versions')).not.toBe(settled);
    }
  });

  it('leaves no temporary files behind after writes and lost create-if-absent races', async () => {
    const store = makeStore('fsync');
    await store.write('dir/a.json', '1');
    await Promise.all(Array.from({ length: 10 }, () => store.writeIfAbsent('dir/b.json', '2')));
    expect((await readdir(join(rootOf(store), 'dir'))).sort()).toEqual(['a.json', 'b.json']);
  });

  it('hides temp files of writes in progress and removes those older than a minute', async () => {
    const store = makeStore('none');
    await store.write('dir/a.json', '1');
    const directory = join(rootOf(store), 'dir');
    const fresh = '.b.json.tmp-123-0123456789ab';
    const stale = '.c.json.tmp-456-abcdef012345';
    await writeFile(join(directory, fresh), 'partial');
    await writeFile(join(directory, stale), 'partial');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await utimes(join(directory, stale), twoMinutesAgo, twoMinutesAgo);

    expect(await store.list('dir')).toEqual(['dir/a.json']);
    expect((await readdir(directory)).sort()).toEqual([fresh, 'a.json'].sort());
  });

  it('reserves the temp-file name pattern', async () => {
    const store = makeStore('none');
    const error = await caught(() => store.write('dir/.x.tmp-1-0123456789ab', 'x'));
    expect(error.code).toBe('invalid_path');
  });

  it('refuses to follow a symbolic link out of the root', async () => {
    const store = makeStore('none');
    const outside = join(base, `outside-${++counter}`);
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(outside, join(rootOf(store), 'escape'));
    await symlink(join(outside, 'secret.txt'), join(rootOf(store), 'secret-link.txt'));

    for (const action of [
      () => store.read('escape/secret.txt'),
      () => store.write('escape/new.txt', 'x'),
      () => store.writeIfAbsent('escape/new.txt', 'x'),
      () => store.list('escape'),
      () => store.delete('escape/secret.txt'),
      () => store.read('secret-link.txt'),
    ]) {
      expect((await caught(action)).code).toBe('invalid_path');
    }
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it('recreates a directory removed behind its back (its cache of existing directories is only a hint)', async () => {
    const store = makeStore('fsync');
    await store.write('cached/a.json', '1');
    await rm(join(rootOf(store), 'cached'), { recursive: true });
    await store.write('cached/b.json', '2');
    expect(await store.writeIfAbsent('cached/c.json', '3')).toBe(true);
    expect(await store.list('cached')).toEqual(['cached/b.json', 'cached/c.json']);
  });

  it('reports filesystem failures as backend_error with the system error as cause', async () => {
    const store = makeStore('none');
    await store.write('plain.txt', 'x');
    const error = await caught(() => store.write('plain.txt/child.txt', 'y'));
    expect(error.code).toBe('backend_error');
    expect(error.message).toContain('plain.txt/child.txt');
    expect(error.cause).toBeInstanceOf(Error);
  });
});
