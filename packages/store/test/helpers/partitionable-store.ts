import type { FileStore } from '../../src/file-store.js';

/** `store`, cut off while `cut.on` (a paused or partitioned process): every call fails. */
export function partitionable(store: FileStore): { store: FileStore; cut: { on: boolean } } {
  const cut = { on: false };
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      cut.on ? Promise.reject(new Error('partitioned')) : call(...args);
  return {
    cut,
    store: {
      read: guard((path: string) => store.read(path)),
      write: guard((path: string, data: string | Uint8Array) => store.write(path, data)),
      writeIfAbsent: guard((path: string, data: string | Uint8Array) => store.writeIfAbsent(path, data)),
      copy: guard((from: string, to: string) => store.copy(from, to)),
      list: guard((prefix: string) => store.list(prefix)),
      delete: guard((path: string) => store.delete(path)),
      exists: guard((path: string) => store.exists(path)),
      describe: (path: string) => store.describe(path),
    },
  };
}
