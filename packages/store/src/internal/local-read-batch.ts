import { readdirSync } from 'node:fs';
import { FileNotFoundError } from '../errors/file-not-found-error.js';
import { StoreError } from '../errors.js';
import { type ConfinedRoot, type DirectoryHandle, openDirectory } from './confined-directory.js';
import type { LocalFileKey } from './local-write-pair.js';
import { readRegularFileBatched } from './regular-file.js';

/** Files `readBatch` reads before it yields to the event loop (a few milliseconds of synchronous calls). */
const READ_BATCH = 256;
/** From this many paths on, `readBatch` lists each directory once instead of an lstat per file. */
const LIST_THRESHOLD = 64;

/** What the local store lends its `readBatch`. */
export interface LocalReadBatchDeps {
  readonly root: ConfinedRoot;
  fileKey(path: string): LocalFileKey;
  fail(error: unknown, operation: string, path: string, location: string): StoreError;
}

/**
 * The local store's `readBatch`: one directory handle per run of paths in one directory, synchronous reads in
 * batches of 256 (yielding between batches; a large file's bytes come through the thread pool, see
 * `readRegularFileBatched`), and one listing per directory instead of an lstat per file from
 * 64 paths on.
 */
export async function readBatchLocal(
  deps: LocalReadBatchDeps,
  paths: readonly string[],
): Promise<(Uint8Array | StoreError)[]> {
  const { root, fileKey, fail } = deps;
  const results: (Uint8Array | StoreError)[] = [];
  let directory: DirectoryHandle | undefined;
  let directoryKey: string | undefined;
  // For a large batch, one listing per directory tells which entries are regular files (no lstat each).
  const listings = new Map<string, ReadonlySet<string>>();
  const listFiles = (handle: DirectoryHandle, wanted: string): ReadonlySet<string> | undefined => {
    if (paths.length < LIST_THRESHOLD) return undefined;
    let files = listings.get(wanted);
    if (files === undefined) {
      const entries = readdirSync(handle.path, { withFileTypes: true });
      files = new Set(entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
      listings.set(wanted, files);
    }
    return files;
  };
  const release = async (): Promise<void> => {
    await directory?.close();
    directory = undefined;
    directoryKey = undefined;
  };
  const settle = (error: unknown, path: string, location: string): void => {
    results.push(fail(error, 'read', path, location));
  };
  try {
    for (let index = 0; index < paths.length; index++) {
      if (index > 0 && index % READ_BATCH === 0) {
        // Let other work run between batches; the directory is opened (and confined) again after.
        await release();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const path = paths[index]!;
      let key: ReturnType<typeof fileKey>;
      try {
        key = fileKey(path);
      } catch (error) {
        if (!StoreError.isInstance(error)) throw error;
        results.push(error);
        continue;
      }
      const wanted = key.segments.join('/');
      if (wanted !== directoryKey) {
        await release();
        try {
          // Synchronous opens, like the reads: a pack read ahead (see `PackedReads`) then reaches the thread
          // pool without waiting for this thread between calls.
          directory = await openDirectory(root, key.segments, { create: false, storePath: path, sync: true });
          directoryKey = wanted;
        } catch (error) {
          settle(error, path, key.location);
          continue;
        }
      }
      if (directory === undefined) {
        results.push(new FileNotFoundError({ path, location: key.location }));
        continue;
      }
      try {
        const listed = listFiles(directory, wanted)?.has(key.name) ?? false;
        const context = { storePath: path, location: key.location };
        const read = readRegularFileBatched(`${directory.path}/${key.name}`, context, listed);
        results.push(read instanceof Uint8Array ? read : await read);
      } catch (error) {
        settle(error, path, key.location);
      }
    }
  } finally {
    await release();
  }
  return results;
}
