// The blob store of checkpoints: a blob stored by an earlier session (another CheckpointStore on the same files) is
// known without being written again, on stores that keep bytes and on those that keep base64 text; a store that
// failed to list once is asked again; forks copy what they need.
import { createHash } from 'node:crypto';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.js';

const sha = (content: Uint8Array) => createHash('sha256').update(content).digest('hex');
const blob = Buffer.from('some bytes');

/** The memory store without the optional `readBatch`, as S3 is. */
function withoutReadBatch(store: FileStore): FileStore {
  const { readBatch: _, ...rest } = store;
  return { ...rest, describe: (path) => store.describe(path) };
}

/** `store` with its writes and copies recorded, and `list` failing the first `failures` times. */
function instrumented(store: FileStore, failures = 0): { store: FileStore; writes: string[]; copies: string[] } {
  const writes: string[] = [];
  const copies: string[] = [];
  let failing = failures;
  return {
    writes,
    copies,
    store: {
      ...store,
      writeIfAbsent: (path, data) => {
        writes.push(path);
        return store.writeIfAbsent(path, data);
      },
      copy: (from, to) => {
        copies.push(to);
        return store.copy(from, to);
      },
      list: (prefix) => {
        if (failing > 0) {
          failing -= 1;
          return Promise.reject(new Error('the store is unreachable for a moment'));
        }
        return store.list(prefix);
      },
    },
  };
}

describe('CheckpointStore blobs', () => {
  for (const [name, makeStore] of [
    ['a store with readBatch', () => createMemoryFileStore()],
    ['a store without readBatch', () => withoutReadBatch(createMemoryFileStore())],
  ] as const) {
    it(`knows the blobs an earlier session stored, and writes none again, on ${name}`, async () => {
      const { store, writes } = instrumented(makeStore());
      const first = new CheckpointStore(store, 'conv');
      await first.putBlob(sha(blob), blob);
      await first.putBlob(sha(blob), blob);
      expect(writes).toHaveLength(1);
      const later = new CheckpointStore(store, 'conv');
      expect(await later.hasBlob(sha(blob))).toBe(true);
      expect(await later.hasBlob(sha(Buffer.from('other')))).toBe(false);
      await later.putBlob(sha(blob), blob);
      expect(writes).toHaveLength(1);
    });
  }

  it('names where a blob is kept', () => {
    const store = createMemoryFileStore();
    const hash = sha(blob);
    expect(new CheckpointStore(store, 'conv').describeBlob(hash)).toBe(
      store.describe(`conv/.x-checkpoints/objects/${hash}`),
    );
    expect(new CheckpointStore(withoutReadBatch(store), 'conv').describeBlob(hash)).toBe(
      store.describe(`conv/.x-checkpoints/objects/${hash}.b64`),
    );
  });

  it('lists the store again after a listing failed, rather than failing every later checkpoint', async () => {
    const { store } = instrumented(createMemoryFileStore(), 1);
    const objects = new CheckpointStore(store, 'conv');
    await expect(objects.putBlob(sha(blob), blob)).rejects.toThrow('unreachable');
    await objects.putBlob(sha(blob), blob);
    expect(await objects.hasBlob(sha(blob))).toBe(true);
    expect(Buffer.from((await objects.getBlobs([sha(blob)]))[0]!).toString()).toBe('some bytes');
  });

  for (const [name, targetStore, copied] of [
    ['a fork on the same store (copied as it is)', undefined, 1],
    ['another store (written anew)', () => createMemoryFileStore(), 0],
    ['another store without readBatch (re-encoded)', () => withoutReadBatch(createMemoryFileStore()), 0],
  ] as const) {
    it(`copies checkpoints into ${name}, each missing blob once`, async () => {
      const { store, writes, copies } = instrumented(createMemoryFileStore());
      const source = new CheckpointStore(store, 'conv');
      const [one, two] = [Buffer.from('one'), Buffer.from('two')];
      for (const content of [one, two]) await source.putBlob(sha(content), content);
      const file = (path: string, content: Buffer) => ({
        path,
        sha256: sha(content),
        size: 3,
        mtime_ms: 1,
        mode: 0o644,
      });
      const manifest = { version: 1 as const, files: [file('one', one), file('two', two)], symlinks: [], skipped: [] };
      const id = await source.putTree(manifest);
      // A fork shares its source's store (the very object): see `initForkedConversation`.
      const target = targetStore === undefined ? { store, writes, copies } : instrumented(targetStore());
      const fork = new CheckpointStore(target.store, 'fork');
      await fork.putBlob(sha(one), one);
      for (const list of [writes, copies, target.writes, target.copies]) list.length = 0;
      await source.copyTo(fork, [id, id]);
      expect(target.copies).toHaveLength(copied);
      expect(target.writes.filter((path) => path.includes('/objects/'))).toHaveLength(1 - copied);
      expect([...target.copies, ...target.writes].filter((path) => path.includes(sha(one)))).toEqual([]);
      expect(await new CheckpointStore(target.store, 'fork').getTree(id)).toEqual(manifest);
      const blobs = await new CheckpointStore(target.store, 'fork').getBlobs([sha(one), sha(two)]);
      expect(blobs.map((content) => Buffer.from(content).toString())).toEqual(['one', 'two']);
    });
  }
});
