import type { FileStore } from '../../src/file-store.js';

export type StoreOperation = 'read' | 'write' | 'writeIfAbsent' | 'copy' | 'list' | 'delete' | 'exists';

export interface CountingStore {
  readonly store: FileStore;
  readonly counts: Record<StoreOperation, number>;
  reset(): void;
}

/** Wraps a FileStore and counts calls per operation, so tests can assert what an EventLog did. */
export function countingStore(inner: FileStore): CountingStore {
  const counts: Record<StoreOperation, number> = {
    read: 0,
    write: 0,
    writeIfAbsent: 0,
    copy: 0,
    list: 0,
    delete: 0,
    exists: 0,
  };
  const count = (operation: StoreOperation): void => {
    counts[operation]++;
  };
  const store: FileStore = {
    read: (path) => {
      count('read');
      return inner.read(path);
    },
    write: (path, data) => {
      count('write');
      return inner.write(path, data);
    },
    writeIfAbsent: (path, data) => {
      count('writeIfAbsent');
      return inner.writeIfAbsent(path, data);
    },
    copy: (from, to) => {
      count('copy');
      return inner.copy(from, to);
    },
    list: (prefix) => {
      count('list');
      return inner.list(prefix);
    },
    delete: (path) => {
      count('delete');
      return inner.delete(path);
    },
    exists: (path) => {
      count('exists');
      return inner.exists(path);
    },
    describe: (path) => inner.describe(path),
  };
  const reset = (): void => {
    for (const key of Object.keys(counts) as StoreOperation[]) counts[key] = 0;
  };
  return { store, counts, reset };
}
