// A checkpoint's tree is stored as one chunk per directory: what comes back must be the tree that went in (every
// entry, in path order, with when it was taken), whatever the directory layout, and a chunk is written once.
import { createHash } from 'node:crypto';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { type CheckpointManifest, checkpointId } from './checkpoint-manifest.js';
import { CheckpointStore } from './checkpoint-store.js';
import { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (path: string, content = path) => ({ path, sha256: sha(content), size: 1, mtime_ms: 5, mode: 0o644 });

/** A memory store that counts the files written. */
function countingStore(): { store: FileStore; writes: string[] } {
  const store = createMemoryFileStore();
  const writes: string[] = [];
  return {
    writes,
    store: Object.assign(Object.create(store) as FileStore, {
      writeIfAbsent: (path: string, data: string | Uint8Array) => {
        writes.push(path);
        return store.writeIfAbsent(path, data);
      },
    }),
  };
}

describe('a stored tree', () => {
  it('reads back whole: files above and below directories, links, skipped files and when it was taken', async () => {
    const store = createMemoryFileStore();
    // `b` sorts after `a/x` but lies in an earlier directory: the chunks' order is not the paths' order.
    const manifest: CheckpointManifest = {
      version: 1,
      taken_ms: 1234,
      files: [file('a/x'), file('b')],
      symlinks: [
        { path: 'a/l', target: '../b' },
        { path: 'z', target: 'b' },
      ],
      skipped: [
        { path: 'a/s', reason: 'permission denied' },
        { path: 'c', reason: 'too large' },
      ],
    };
    const id = await new CheckpointStore(store, 'conv').putTree(manifest);
    expect(id).toBe(checkpointId(manifest));
    expect(await new CheckpointStore(store, 'conv').getTree(id)).toEqual(manifest);
  });

  it('reads back a tree of a single directory', async () => {
    const store = createMemoryFileStore();
    const manifest: CheckpointManifest = { version: 1, files: [file('x'), file('y')], symlinks: [], skipped: [] };
    const id = await new CheckpointStore(store, 'conv').putTree(manifest);
    expect(await new CheckpointStore(store, 'conv').getTree(id)).toEqual(manifest);
  });

  it('gives different trees different ids, each read back as itself', async () => {
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const one: CheckpointManifest = { version: 1, files: [file('x', 'one')], symlinks: [], skipped: [] };
    const two: CheckpointManifest = { version: 1, files: [file('x', 'two')], symlinks: [], skipped: [] };
    const [idOne, idTwo] = [await objects.putTree(one), await objects.putTree(two)];
    expect(idOne).toMatch(/^[0-9a-f]{64}$/);
    expect(idTwo).not.toBe(idOne);
    expect(await objects.getTree(idOne)).toEqual(one);
    expect(await objects.getTree(idTwo)).toEqual(two);
  });

  it('writes each directory once: a tree that changed one directory writes one chunk and itself', async () => {
    const { store, writes } = countingStore();
    const objects = new CheckpointStore(store, 'conv');
    await objects.putTree({ version: 1, files: [file('a/x'), file('b')], symlinks: [], skipped: [] });
    expect(writes).toHaveLength(3);
    writes.length = 0;
    await objects.putTree({ version: 1, files: [file('a/x'), file('b', 'changed')], symlinks: [], skipped: [] });
    expect(writes.filter((path) => path.includes('/chunks/'))).toHaveLength(1);
    expect(writes).toHaveLength(2);
  });

  it('reads a tree stored whole (the first format), as written by earlier versions', async () => {
    const store = createMemoryFileStore();
    const manifest: CheckpointManifest = { version: 1, files: [file('a/x'), file('b')], symlinks: [], skipped: [] };
    const id = checkpointId(manifest);
    await store.write(`conv/.x-checkpoints/trees/${id}.json`, JSON.stringify(manifest));
    expect(await new CheckpointStore(store, 'conv').getTree(id)).toEqual(manifest);
  });

  it('is damaged when an entry has an empty path, stored whole or in chunks', async () => {
    const store = createMemoryFileStore();
    const emptyFile: CheckpointManifest = { version: 1, files: [file('')], symlinks: [], skipped: [] };
    const emptyLink: CheckpointManifest = { version: 1, files: [], symlinks: [{ path: '', target: 'x' }], skipped: [] };
    for (const manifest of [emptyFile, emptyLink]) {
      await store.write(`conv/.x-checkpoints/trees/${checkpointId(manifest)}.json`, JSON.stringify(manifest));
    }
    const chunk = JSON.stringify({ files: [], symlinks: [{ path: '', target: 'y' }], skipped: [] });
    await store.write(`conv/.x-checkpoints/chunks/${sha(chunk)}.json`, chunk);
    const chunked: CheckpointManifest = { version: 1, files: [], symlinks: [{ path: '', target: 'y' }], skipped: [] };
    const tree = { version: 2, dirs: [{ dir: '', chunk: sha(chunk) }] };
    await store.write(`conv/.x-checkpoints/trees/${checkpointId(chunked)}.json`, JSON.stringify(tree));
    const objects = new CheckpointStore(store, 'conv');
    for (const manifest of [emptyFile, emptyLink, chunked]) {
      await expect(objects.getTree(checkpointId(manifest))).rejects.toBeInstanceOf(CheckpointDamagedError);
    }
  });

  it('names the field at fault in a malformed tree', async () => {
    const store = createMemoryFileStore();
    const id = sha('any');
    await store.write(
      `conv/.x-checkpoints/trees/${id}.json`,
      JSON.stringify({ version: 2, dirs: [{ dir: '', chunk: 'x' }] }),
    );
    const error = await new CheckpointStore(store, 'conv').getTree(id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckpointDamagedError);
    expect((error as Error).message).toContain(`trees/${id}.json`);
    expect((error as Error).message).toContain('dirs.0.chunk');
  });
});
