import { createMemoryFileStore, type FileStore } from '@x/store';

/**
 * A store that reads `base` and never writes to it: writes, copies and deletes land in an in-memory
 * layer that reads see first. `x view` uses it so that looking at a conversation (which makes the server
 * checkpoint its state and write its meta.json) changes nothing on disk.
 */
export function createReadOnlyOverlay(base: FileStore): FileStore {
  const layer = createMemoryFileStore();
  const exists = async (path: string) => (await layer.exists(path)) || (await base.exists(path));
  return {
    async read(path) {
      return (await layer.exists(path)) ? layer.read(path) : base.read(path);
    },
    write: (path, data) => layer.write(path, data),
    async writeIfAbsent(path, data) {
      if (await base.exists(path)) return false;
      return layer.writeIfAbsent(path, data);
    },
    async copy(from, to) {
      if (await layer.exists(from)) return layer.copy(from, to);
      return layer.write(to, await base.read(from));
    },
    async list(prefix) {
      const [upper, lower] = await Promise.all([layer.list(prefix), base.list(prefix)]);
      return [...new Set([...lower, ...upper])].sort();
    },
    delete: (path) => layer.delete(path),
    exists,
    describe: (path) => base.describe(path),
  };
}
