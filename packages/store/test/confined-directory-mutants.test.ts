import { mkdtempSync, readdirSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidPathError } from '../src/errors/invalid-path-error.js';
import { StoreError } from '../src/errors.js';
import { createLocalFileStore } from '../src/local-file-store.js';

const base = mkdtempSync(join(tmpdir(), 'x-store-confined-mutants-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;
const freshRoot = () => join(base, `root-${++counter}`);

/** The descriptors this process holds now. */
const openDescriptors = (): number => readdirSync('/proc/self/fd').length;

async function failure(action: () => Promise<unknown>): Promise<unknown> {
  return action().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe.runIf(process.platform === 'linux')('local FileStore root and directory descriptors', () => {
  it('works in the new directory when the root path was replaced by another directory', async () => {
    const root = freshRoot();
    const first = createLocalFileStore({ root, durability: 'none' });
    await first.write('a/x.json', 'old');
    await rename(root, `${root}-old`);
    await mkdir(root);
    // A store opened on the same path now must not share the first store's descriptor of the old directory.
    const second = createLocalFileStore({ root, durability: 'none' });
    await second.write('a/y.json', 'new');
    expect(await readdir(join(root, 'a'))).toEqual(['y.json']);
    expect(await second.exists('a/x.json')).toBe(false);
    // The first store keeps the directory it was opened on.
    expect(await first.read('a/x.json')).toBe('old');
    expect(await readFile(join(`${root}-old`, 'a', 'x.json'), 'utf8')).toBe('old');
  });

  it('releases the descriptors of a walk that stops at a link or a missing directory', async () => {
    const root = freshRoot();
    const outside = `${root}-outside`;
    const store = createLocalFileStore({ root, durability: 'none' });
    await store.write('a/b/x.json', 'x');
    await mkdir(outside);
    await symlink(outside, join(root, 'a', 'b', 'link'));
    const attempts = 100;
    const before = openDescriptors();
    for (let i = 0; i < attempts; i++) {
      expect(await failure(() => store.read('a/b/link/x.json'))).toBeInstanceOf(InvalidPathError);
      expect(await store.exists('a/b/missing/x.json')).toBe(false);
    }
    // Each attempt opened `a` and `a/b` before it stopped: none of them may stay open.
    expect(openDescriptors() - before).toBeLessThan(attempts);
  });

  it('names the link the walk stopped at, not its parent or the whole path', async () => {
    const root = freshRoot();
    const store = createLocalFileStore({ root, durability: 'none' });
    await store.write('a/b/x.json', 'x');
    await symlink(join(root, 'a'), join(root, 'a', 'b', 'link'));
    const error = await failure(() => store.read('a/b/link/c/x.json'));
    expect(error).toBeInstanceOf(InvalidPathError);
    expect((error as InvalidPathError).reason).toBe('"a/b/link" is a symbolic link (not followed)');
    expect(StoreError.isInstance(error) && error.code).toBe('invalid_path');
  });

  it('closes the root descriptor once no store on that directory is reachable', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const stores = 20;
    const before = openDescriptors();
    await (async () => {
      // Distinct directories: each store opens a descriptor of its own.
      for (let i = 0; i < stores; i++)
        await createLocalFileStore({ root: freshRoot(), durability: 'none' }).exists('x');
    })();
    expect(openDescriptors() - before).toBeGreaterThanOrEqual(stores);
    // Finalizers run some time after a collection: collect and yield until the descriptors are back (bounded).
    for (let round = 0; round < 100 && openDescriptors() - before >= stores; round++) {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(openDescriptors() - before).toBeLessThan(stores);
  });
});
