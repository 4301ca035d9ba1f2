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

  // listingVersion: a stamp per existing directory, from one clock, so a directory removed and created
  // again never repeats a token; `entries` counts the files below each directory (to see it appear and go).
  let clock = 0;
  const stamps = new Map<string, number>();
  const entries = new Map<string, number>();
  const parentOf = (key: string): string => key.slice(0, Math.max(0, key.lastIndexOf('/')));
  /** `key` becomes a file (`created`) or stops being one: stamps its parent, and every directory that appears or goes. */
  const changed = (key: string, created: boolean): void => {
    let directory = parentOf(key);
    stamps.set(directory, ++clock);
    while (directory !== '') {
      const count = (entries.get(directory) ?? 0) + (created ? 1 : -1);
      if (count > 0) entries.set(directory, count);
      else {
        entries.delete(directory);
        stamps.delete(directory);
      }
      // The directory appeared or went: an entry of its parent changed.
      if (count === (created ? 1 : 0)) stamps.set(parentOf(directory), ++clock);
      directory = parentOf(directory);
    }
  };
  /** Stores `bytes` at `key` and stamps its directory (and any directory that appears). */
  const put = (key: string, bytes: Uint8Array): void => {
    const created = !files.has(key);
    files.set(key, bytes);
    if (created) changed(key, true);
    // A write replaces the file by renaming a new one over it, as on the filesystem: the directory changes.
    else stamps.set(parentOf(key), ++clock);
  };

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
      put(validateStorePath(path), toOwnedBytes(data));
    },

    async writeIfAbsent(path, data) {
      const key = validateStorePath(path);
      if (files.has(key)) return false;
      put(key, toOwnedBytes(data));
      return true;
    },

    async copy(from, to) {
      const source = validateStorePath(from);
      const target = validateStorePath(to);
      const bytes = files.get(source);
      if (bytes === undefined) throw new FileNotFoundError({ path: from, location: `${origin}/${source}` });
      put(target, bytes);
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
      if (files.delete(key)) changed(key, false);
      const start = `${key}/`;
      for (const other of [...files.keys()]) {
        if (other.startsWith(start) && files.delete(other)) changed(other, false);
      }
    },

    async listingVersion(dir) {
      const key = validateStorePath(dir, { allowTrailingSlash: true });
      if (key !== '' && !entries.has(key)) return undefined;
      return `${origin}#${stamps.get(key) ?? 0}`;
    },

    async openAppendFile(path) {
      const key = validateStorePath(path);
      if (!files.has(key)) put(key, new Uint8Array(0));
      return {
        // Synchronous map updates, like writeIfAbsent: appends never interleave. A delete of the file ends it.
        async append(data) {
          const after = appendBytes(files.get(key), data);
          files.set(key, after);
          return after.length;
        },
        async readFrom(offset, length) {
          const bytes = files.get(key) ?? new Uint8Array(0);
          return bytes.slice(offset, length === undefined ? undefined : offset + length);
        },
        async close() {},
      };
    },

    async writeRebuildable(writes) {
      for (const { path, data } of writes) put(validateStorePath(path), toOwnedBytes(data));
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

/**
 * `before` and then `data`, for an append: written into the spare room of `before`'s buffer when it has some (room
 * this function left there, doubling the buffer as it grows, so a run of appends copies each byte about twice, not
 * once per append after it), else into a new buffer. A stored file is always a view of a buffer's first bytes, and
 * an append writes only past the end of the newest view: every earlier view (read, copied, or the file before an
 * append) keeps its bytes.
 */
function appendBytes(before: Uint8Array | undefined, data: Uint8Array): Uint8Array {
  const length = (before?.length ?? 0) + data.length;
  const spare = before === undefined ? undefined : spareRoom.get(before.buffer);
  if (
    before !== undefined &&
    spare === before.length &&
    before.byteOffset === 0 &&
    before.buffer.byteLength >= length
  ) {
    const after = new Uint8Array(before.buffer, 0, length);
    after.set(data, before.length);
    spareRoom.set(before.buffer, length);
    return after;
  }
  const buffer = new ArrayBuffer(Math.max(length, Math.min(2 * length, length + MAX_SPARE)));
  const after = new Uint8Array(buffer, 0, length);
  if (before !== undefined) after.set(before);
  after.set(data, before?.length ?? 0);
  spareRoom.set(buffer, length);
  return after;
}

/** Room an append buffer keeps beyond its bytes at most (its doubling stops there). */
const MAX_SPARE = 64 * 1024 * 1024;

/** Per append buffer: how many of its first bytes are used (the newest view's length); past that is free. */
const spareRoom = new WeakMap<ArrayBufferLike, number>();
