import { linkSync, mkdirSync, realpathSync, renameSync, unlinkSync } from 'node:fs';
import { link, lstat, readdir, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import { FileNotFoundError } from './errors/file-not-found-error.js';
import { InvalidPathError } from './errors/invalid-path-error.js';
import { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
import type { FileStore } from './file-store.js';
import { sortByCodePoint } from './internal/compare-code-points.js';
import {
  type ConfinedRoot,
  type DirectoryHandle,
  openConfinedRoot,
  openDirectory,
  syncDirectory,
} from './internal/confined-directory.js';
import { directoryVersion } from './internal/directory-version.js';
import { fileSizesLocal, openAppendFileLocal, writeRebuildableLocal } from './internal/local-append-file.js';
import { checkCopySource, copyInto } from './internal/local-copy.js';
import { errnoCode, TEMP_FILE_PATTERN, tempNameFor, toStoreError } from './internal/local-fs.js';
import { readBatchLocal } from './internal/local-read-batch.js';
import { isNonEmptyDirectory, pruneEmptyDirectories, removeEntry, removeIfStale } from './internal/local-remove.js';
import { writeIfAbsentThenWriteLocal } from './internal/local-write-pair.js';
import { writeIfAbsentThenWriteManyLocal } from './internal/local-write-pairs.js';
import { type LocalWriteThenLinkDeps, writeIfAbsentThenLinkManyLocal } from './internal/local-write-then-link.js';
import { readRegularFile, readRegularFileSync, writeNewFile } from './internal/regular-file.js';
import { joinStorePath, validateStorePath } from './store-path.js';

export interface LocalFileStoreOptions {
  /** Directory holding the store; `~` is expanded, relative paths resolve against the cwd. Created if missing. */
  root: string;
  /**
   * `'fsync'` (default): a write or delete is on disk when its promise resolves (file and directory
   * entry are fsynced). `'none'`: still atomic, but a power loss may lose recent changes; much faster.
   */
  durability?: 'fsync' | 'none';
}

/**
 * A FileStore in a directory of the local filesystem. `write` is a temp file + rename and
 * `writeIfAbsent` a temp file + `link()`, which fails with EEXIST when the target exists: both are
 * atomic across processes on POSIX filesystems (not guaranteed on some network filesystems).
 *
 * Confinement is checked at every use, never cached: each call opens the directories of its path
 * one component at a time from the root with `O_NOFOLLOW` and works inside the directory it opened
 * (see `openDirectory`), so a symbolic link anywhere, or a directory swapped for one at any moment,
 * cannot lead a read, write, listing, link or delete out of the root.
 */
export function createLocalFileStore(options: LocalFileStoreOptions): FileStore {
  if (typeof options?.root !== 'string' || options.root === '') {
    throw new InvalidStoreOptionsError('root', `expected a directory path, got ${JSON.stringify(options?.root)}`);
  }
  if (options.durability !== undefined && options.durability !== 'fsync' && options.durability !== 'none') {
    throw new InvalidStoreOptionsError(
      'durability',
      `expected 'fsync' or 'none', got ${JSON.stringify(options.durability)}`,
    );
  }
  const durable = (options.durability ?? 'fsync') === 'fsync';
  const rootPath = resolve(expandHome(options.root));
  mkdirSync(rootPath, { recursive: true });
  // Referenced by every method below: the root's descriptor lives as long as any of them can run.
  const root: ConfinedRoot = openConfinedRoot(realpathSync(rootPath));
  const rootPrefix = root.realPath.endsWith(sep) ? root.realPath : `${root.realPath}${sep}`;

  const absolute = (key: string): string => (key === '' ? root.realPath : `${rootPrefix}${key.split('/').join(sep)}`);

  /** A validated file path, split into its directory's segments and its name. */
  const fileKey = (path: string) => {
    const key = validateStorePath(path);
    const segments = key.split('/');
    const name = segments.pop()!;
    if (TEMP_FILE_PATTERN.test(name)) {
      throw new InvalidPathError({ path, reason: 'the name is reserved for the local store’s temporary files' });
    }
    return { key, segments, name, location: absolute(key) };
  };

  /** Runs `work` in the path's directory, creating it; once more if a concurrent delete removed it meanwhile. */
  const inDirectory = async <T>(
    segments: readonly string[],
    path: string,
    work: (directory: DirectoryHandle) => Promise<T>,
  ): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const directory = (await openDirectory(root, segments, {
        create: true,
        storePath: path,
        sync: !durable,
        durable,
      }))!;
      try {
        return await work(directory);
      } catch (error) {
        // Creating a name in a directory that was removed after we opened it fails with ENOENT.
        if (errnoCode(error) !== 'ENOENT' || attempt > 0) throw error;
      } finally {
        await directory.close();
      }
    }
  };

  /**
   * A fresh temp file in `directory` holding `data`; its path. Fsynced when `synced` (the store's policy by
   * default); unsynced it is written with synchronous calls, before this returns its promise.
   */
  const writeTemp = async (
    directory: DirectoryHandle,
    name: string,
    data: string | Uint8Array,
    synced = durable,
  ): Promise<string> => {
    const temp = `${directory.path}/${tempNameFor(name)}`;
    await writeNewFile(temp, data, synced);
    return temp;
  };

  /**
   * Renames `temp` over `target`: rename() replaces whatever entry is there (a link, a FIFO) without following
   * it. Through the thread pool when the store fsyncs (its other calls are asynchronous too), unless `quick`.
   */
  const replaceWith = async (temp: string, target: string, quick = !durable): Promise<void> => {
    try {
      if (!quick) await rename(temp, target);
      else renameSync(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  };

  /** Hard-links `temp` at `target` (EEXIST when taken) and removes `temp`, whatever happened. */
  const linkThenRemove = async (temp: string, target: string): Promise<void> => {
    if (durable) {
      try {
        await link(temp, target);
      } finally {
        await unlink(temp).catch(() => undefined);
      }
      return;
    }
    try {
      linkSync(temp, target);
    } finally {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone: nothing to clean up.
      }
    }
  };

  const fail = (error: unknown, operation: string, path: string, location: string) =>
    toStoreError(error, { operation, path, location });

  /** `list` (sorted by code point) or `listUnordered`. */
  const listDirectory = async (prefix: string, sorted: boolean): Promise<string[]> => {
    const key = validateStorePath(prefix, { allowTrailingSlash: true });
    const location = absolute(key);
    try {
      const directory = await openDirectory(root, key === '' ? [] : key.split('/'), {
        create: false,
        storePath: prefix,
      });
      if (directory === undefined) return [];
      try {
        const entries = await readdir(directory.path, { withFileTypes: true });
        const result: string[] = [];
        const temps: string[] = [];
        for (const entry of entries) {
          if (TEMP_FILE_PATTERN.test(entry.name)) temps.push(`${directory.path}/${entry.name}`);
          // Only real directories are directories: a link to one is listed as the entry it is (reading it fails).
          else if (entry.isDirectory()) result.push(`${joinStorePath(key, entry.name)}/`);
          else result.push(joinStorePath(key, entry.name));
        }
        await Promise.all(temps.map(removeIfStale));
        return sorted ? sortByCodePoint(result) : result;
      } finally {
        await directory.close();
      }
    } catch (error) {
      throw fail(error, 'list', prefix, location);
    }
  };

  const store: FileStore = {
    async read(path) {
      const { segments, name, location } = fileKey(path);
      try {
        const directory = await openDirectory(root, segments, { create: false, storePath: path, sync: !durable });
        if (directory === undefined) throw new FileNotFoundError({ path, location });
        try {
          const file = `${directory.path}/${name}`;
          const bytes = durable
            ? await readRegularFile(file, { storePath: path, location })
            : readRegularFileSync(file, { storePath: path, location });
          return bytes.toString('utf8');
        } finally {
          await directory.close();
        }
      } catch (error) {
        throw fail(error, 'read', path, location);
      }
    },

    readBatch: (paths) => readBatchLocal({ root, fileKey, fail }, paths),

    async write(path, data) {
      const { segments, name, location } = fileKey(path);
      try {
        await inDirectory(segments, path, async (directory) => {
          await replaceWith(await writeTemp(directory, name, data), `${directory.path}/${name}`);
          if (durable) await syncDirectory(directory);
        });
      } catch (error) {
        throw fail(error, 'write', path, location);
      }
    },

    async writeIfAbsent(path, data) {
      const { segments, name, location } = fileKey(path);
      try {
        return await inDirectory(segments, path, async (directory) => {
          const temp = await writeTemp(directory, name, data);
          try {
            await linkThenRemove(temp, `${directory.path}/${name}`);
          } catch (error) {
            if (errnoCode(error) === 'EEXIST') return false;
            throw error;
          }
          if (durable) await syncDirectory(directory);
          return true;
        });
      } catch (error) {
        throw fail(error, 'writeIfAbsent', path, location);
      }
    },

    writeIfAbsentThenWrite: (first, then, onCreated, options) =>
      writeIfAbsentThenWriteLocal(pair, first, then, onCreated, {
        onVersions: options?.onVersions,
        rebuildable: options?.deferThen !== undefined,
      }),

    writeIfAbsentThenLinkMany: (items, onCreated, options) =>
      writeIfAbsentThenLinkManyLocal(pair, items, onCreated, {
        onVersions: options?.onVersions,
        rebuildable: options?.deferThen !== undefined,
      }),

    writeIfAbsentThenWriteMany: (pairs, onCreated, options) =>
      writeIfAbsentThenWriteManyLocal(pair, pairs, onCreated, {
        onVersions: options?.onVersions,
        rebuildable: options?.deferThen !== undefined,
      }),

    async copy(from, to) {
      const source = fileKey(from);
      const target = fileKey(to);
      try {
        const sourceDirectory = await openDirectory(root, source.segments, { create: false, storePath: from });
        if (sourceDirectory === undefined) throw new FileNotFoundError({ path: from, location: source.location });
        try {
          const sourcePath = `${sourceDirectory.path}/${source.name}`;
          await checkCopySource(sourcePath, { storePath: from, location: source.location });
          await inDirectory(target.segments, to, async (directory) => {
            await copyInto({ writeTemp, replaceWith }, sourcePath, directory, target.name, {
              storePath: from,
              location: source.location,
            });
            if (durable) await syncDirectory(directory);
          });
        } finally {
          await sourceDirectory.close();
        }
      } catch (error) {
        if (FileNotFoundError.isInstance(error)) throw error;
        throw fail(error, 'copy', to, target.location);
      }
    },

    list: (prefix) => listDirectory(prefix, true),

    listUnordered: (prefix) => listDirectory(prefix, false),

    async delete(path) {
      const { segments, name, location } = fileKey(path);
      try {
        const parent = await openDirectory(root, segments, { create: false, storePath: path });
        if (parent === undefined) return;
        try {
          if (!(await removeEntry(parent, name))) return;
          if (durable) await syncDirectory(parent);
        } finally {
          await parent.close();
        }
        await pruneEmptyDirectories(root, segments, { durable, storePath: path });
      } catch (error) {
        throw fail(error, 'delete', path, location);
      }
    },

    async exists(path) {
      const { segments, name, location } = fileKey(path);
      try {
        const parent = await openDirectory(root, segments, { create: false, storePath: path });
        if (parent === undefined) return false;
        try {
          const info = await lstat(`${parent.path}/${name}`).catch((error: unknown) => {
            if (errnoCode(error) === 'ENOENT') return undefined;
            throw error;
          });
          if (info === undefined) return false;
          // Any other entry (a link, a FIFO) is something there; reading it is what fails.
          if (!info.isDirectory()) return true;
          return await isNonEmptyDirectory(parent, name);
        } finally {
          await parent.close();
        }
      } catch (error) {
        throw fail(error, 'exists', path, location);
      }
    },

    async listingVersion(dir, options) {
      const key = validateStorePath(dir, { allowTrailingSlash: true });
      try {
        const directory = await openDirectory(root, key === '' ? [] : key.split('/'), {
          create: false,
          storePath: dir,
          sync: !durable,
        });
        if (directory === undefined) return undefined;
        try {
          return await directoryVersion(directory, { sync: !durable, settled: options?.settled === true });
        } finally {
          await directory.close();
        }
      } catch (error) {
        throw fail(error, 'listingVersion', dir, absolute(key));
      }
    },

    openAppendFile: (path) => openAppendFileLocal(pair, path),

    writeRebuildable: (files) => writeRebuildableLocal(pair, files),

    fileSizes: (paths) => fileSizesLocal(pair, paths),

    describe(path) {
      return absolute(validateStorePath(path, { allowTrailingSlash: true }));
    },
  };
  // What the claim-then-event-file call borrows from this store (see `internal/local-write-pair.ts`).
  const pair: LocalWriteThenLinkDeps = {
    root,
    durable,
    fileKey,
    fail,
    writeTemp,
    linkThenRemove,
    replaceWith,
    ...store,
  };
  return store;
}

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return `${homedir()}${path.slice(1)}`;
  return path;
}
