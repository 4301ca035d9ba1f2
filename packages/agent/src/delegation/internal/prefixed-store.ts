import type { FileStore } from '@x/store';

/** A view of `store` rooted at `prefix`: how a child conversation lives inside its parent's directory. */
export function prefixedStore(store: FileStore, prefix: string): FileStore {
  const at = (path: string): string => (path === '' ? prefix : `${prefix}/${path}`);
  const strip = (path: string): string => path.slice(prefix.length + 1);
  return {
    read: (path) => store.read(at(path)),
    // The fence (a run's lease) passes through: a store that checks it inside its write still does.
    write: (path, data, options) => store.write(at(path), data, options),
    ...(store.fencesWrites === undefined ? {} : { fencesWrites: store.fencesWrites }),
    writeIfAbsent: (path, data) => store.writeIfAbsent(at(path), data),
    copy: (from, to) => store.copy(at(from), at(to)),
    list: async (path) => (await store.list(path === '' ? `${prefix}/` : at(path))).map(strip),
    delete: (path) => store.delete(at(path)),
    exists: (path) => store.exists(at(path)),
    describe: (path) => store.describe(at(path)),
  };
}
