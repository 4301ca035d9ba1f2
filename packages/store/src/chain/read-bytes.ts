import { StoreError } from '../errors.js';
import { readMany } from '../event-log/read-many.js';
import type { FileStore } from '../file-store.js';

const CONCURRENCY = 32;

/**
 * The bytes of each file (undefined where no path is given), or the `StoreError` reading it gave. Uses the store's
 * `readBatch` when it has one (the local store: synchronous reads in short batches, several times faster than one
 * asynchronous `read` per file), else `read` with 32 in flight (S3, memory), re-encoding the text as UTF-8.
 */
export async function readBytes(
  store: FileStore,
  paths: readonly (string | undefined)[],
): Promise<(Uint8Array | StoreError | undefined)[]> {
  if (store.readBatch !== undefined) {
    const wanted = paths.flatMap((path, index) => (path === undefined ? [] : [index]));
    const read = await store.readBatch(wanted.map((index) => paths[index]!));
    const results = new Array<Uint8Array | StoreError | undefined>(paths.length);
    wanted.forEach((index, position) => {
      results[index] = read[position];
    });
    return results;
  }
  return readMany({
    start: 0,
    end: paths.length,
    concurrency: CONCURRENCY,
    read: async (index) => {
      const path = paths[index];
      if (path === undefined) return undefined;
      try {
        return Buffer.from(await store.read(path), 'utf8');
      } catch (error) {
        if (StoreError.isInstance(error)) return error;
        throw error;
      }
    },
  });
}
