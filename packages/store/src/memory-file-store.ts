import { FileNotFoundError } from './errors/file-not-found-error.js';
import { StoreError } from './errors.js';
import type { FileStore } from './file-store.js';
import { sortByCodePoint } from './internal/compare-code-points.js';
import { toOwnedBytes } from './internal/to-bytes.js';
import { joinStorePath, validateStorePath } from './store-path.js';

let instances = 0;
// ignoreBOM keeps a leading U+FEFF in the text, as the filesystem and S3 backends do.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A FileStore held in a Map, for tests and throw-away conversations. Unlike the reference's
 * InMemoryFileStore it never evicts: an event log must not lose files silently. Data is copied on
 * write, so mutating a Uint8Array afterwards does not change what is stored. Every method completes
 * its map update synchronously, which makes `writeIfAbsent` atomic by construction.
 */
export function createMemoryFileStore(): FileStore {
  const files = new Map<string, Uint8Array>();
  const origin = `memory://store-${++instances}`;

  const hasDirectory = (directory: string): boolean => {
    const start = `${directory}/`;
    for (const key of files.keys()) if (key.startsWith(start)) return true;
    return false;
  };

  return {
    async read(path) {
      const key = validateStorePath(path);
      const bytes = files.get(key);
      if (bytes === undefined) throw new FileNotFoundError({ path, location: `${origin}/${key}` });
      return decoder.decode(bytes);
    },

    async readBatch(paths) {
      return paths.map((path) => {
        try {
          const key = validateStorePath(path);
          const bytes = files.get(key);
          // A copy: what the caller does with it never changes the store.
          return bytes === undefined ? new FileNotFoundError({ path, location: `${origin}/${key}` }) : bytes.slice();
        } catch (error) {
          if (StoreError.isInstance(error)) return error;
          throw error;
        }
      });
    },

    async write(path, data) {
      files.set(validateStorePath(path), toOwnedBytes(data));
    },

    async writeIfAbsent(path, data) {
      const key = validateStorePath(path);
      if (files.has(key)) return false;
      files.set(key, toOwnedBytes(data));
      return true;
    },

    async copy(from, to) {
      const source = validateStorePath(from);
      const target = validateStorePath(to);
      const bytes = files.get(source);
      if (bytes === undefined) throw new FileNotFoundError({ path: from, location: `${origin}/${source}` });
      files.set(target, bytes);
    },

    async list(prefix) {
      const directory = validateStorePath(prefix, { allowTrailingSlash: true });
      const start = directory === '' ? '' : `${directory}/`;
      const entries = new Set<string>();
      for (const key of files.keys()) {
        if (!key.startsWith(start)) continue;
        const rest = key.slice(start.length);
        const slash = rest.indexOf('/');
        entries.add(slash === -1 ? key : `${joinStorePath(directory, rest.slice(0, slash))}/`);
      }
      return sortByCodePoint([...entries]);
    },

    async delete(path) {
      const key = validateStorePath(path);
      files.delete(key);
      const start = `${key}/`;
      for (const other of [...files.keys()]) if (other.startsWith(start)) files.delete(other);
    },

    async exists(path) {
      const key = validateStorePath(path);
      return files.has(key) || hasDirectory(key);
    },

    describe(path) {
      return `${origin}/${validateStorePath(path, { allowTrailingSlash: true })}`;
    },
  };
}
