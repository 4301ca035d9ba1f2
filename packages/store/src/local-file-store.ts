import { constants, mkdirSync, readFile as readFileWithCallback, realpathSync } from 'node:fs';
import {
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, resolve, sep } from 'node:path';
import { FileNotFoundError } from './errors/file-not-found-error.js';
import { InvalidPathError } from './errors/invalid-path-error.js';
import type { FileStore } from './file-store.js';
import { sortByCodePoint } from './internal/compare-code-points.js';
import {
  errnoCode,
  isMissing,
  STALE_TEMP_AGE_MS,
  syncDirectory,
  TEMP_FILE_PATTERN,
  tempPathFor,
  toStoreError,
} from './internal/local-fs.js';
import { joinStorePath, validateStorePath } from './store-path.js';

export interface LocalFileStoreOptions {
  /** Directory holding the store; `~` is expanded, relative paths resolve against the cwd. Created if missing. */
  root: string;
  /**
   * `'fsync'` (default): a write is on disk when its promise resolves (file and directory entry are
   * fsynced). `'none'`: still atomic, but a power loss may lose recent writes; much faster.
   */
  durability?: 'fsync' | 'none';
}

const readFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/**
 * The callback `fs.readFile` in a promise: for the small files of an event log it is about twice as
 * fast as `fs/promises` `readFile`, which reads through a FileHandle in several round trips.
 */
function readSmallFile(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // Node accepts numeric open flags here (O_NOFOLLOW); the callback overloads only type strings.
    readFileWithCallback(path, { encoding: 'utf8', flag: readFlags as unknown as string }, (error, text) =>
      error ? reject(error) : resolvePromise(text),
    );
  });
}

/**
 * A FileStore in a directory of the local filesystem. `write` is a temp file + rename and
 * `writeIfAbsent` a temp file + `link()`, which fails with EEXIST when the target exists: both are
 * atomic across processes on POSIX filesystems (not guaranteed on some network filesystems).
 */
export function createLocalFileStore(options: LocalFileStoreOptions): FileStore {
  const durable = (options.durability ?? 'fsync') === 'fsync';
  const rootPath = resolve(expandHome(options.root));
  mkdirSync(rootPath, { recursive: true });
  // Compared against realpath() results, so it must itself be a real path.
  const root = realpathSync(rootPath);
  const rootPrefix = root.endsWith(sep) ? root : `${root}${sep}`;
  /** Directories known to exist and to resolve inside the root: saves a mkdir/realpath per call. */
  const verified = new Set<string>([root]);

  const absolute = (key: string): string => (key === '' ? root : `${rootPrefix}${key.split('/').join(sep)}`);

  const fileKey = (path: string): string => {
    const key = validateStorePath(path);
    if (TEMP_FILE_PATTERN.test(basename(key))) {
      throw new InvalidPathError({ path, reason: 'the name is reserved for the local store’s temporary files' });
    }
    return key;
  };

  const checkConfined = async (directory: string, path: string): Promise<void> => {
    const real = await realpath(directory);
    if (real !== root && !real.startsWith(rootPrefix)) {
      throw new InvalidPathError({ path, reason: `resolves outside the store root through a symbolic link (${real})` });
    }
    verified.add(directory);
  };

  /** False when the directory does not exist; throws when it escapes the root. */
  const existingDirectory = async (directory: string, path: string): Promise<boolean> => {
    if (verified.has(directory)) return true;
    try {
      await checkConfined(directory, path);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  };

  /** Runs `create` inside the target's directory, making it first; retries once if it vanished meanwhile. */
  const inDirectory = async <T>(
    target: string,
    path: string,
    create: (directory: string) => Promise<T>,
  ): Promise<T> => {
    const directory = dirname(target);
    for (let attempt = 0; ; attempt++) {
      if (!verified.has(directory)) {
        await mkdir(directory, { recursive: true });
        await checkConfined(directory, path);
      }
      try {
        return await create(directory);
      } catch (error) {
        // Another writer (or a delete pruning empty directories) removed the directory after we cached it.
        if (errnoCode(error) !== 'ENOENT' || attempt > 0) throw error;
        forget(directory);
      }
    }
  };

  const forget = (directory: string): void => {
    const below = `${directory}${sep}`;
    for (const known of verified) if (known === directory || known.startsWith(below)) verified.delete(known);
    verified.add(root);
  };

  const writeTemp = async (temp: string, data: string | Uint8Array): Promise<void> => {
    if (!durable) {
      await writeFile(temp, data, { flag: 'wx' });
      return;
    }
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await handle.close();
  };

  /** Removes now-empty directories from `directory` up to (not including) the root, like S3 would show them. */
  const pruneEmpty = async (directory: string): Promise<void> => {
    let current = directory;
    while (current !== root && current.startsWith(rootPrefix)) {
      try {
        await rmdir(current);
      } catch {
        return;
      }
      verified.delete(current);
      current = dirname(current);
    }
  };

  const isNonEmptyDirectory = async (directory: string): Promise<boolean> => {
    const names = await readdir(directory);
    return names.some((name) => !TEMP_FILE_PATTERN.test(name));
  };

  const removeIfStale = async (file: string): Promise<void> => {
    try {
      const info = await lstat(file);
      if (Date.now() - info.mtimeMs > STALE_TEMP_AGE_MS) await unlink(file);
    } catch {
      // Already gone (its writer finished, or another lister removed it): nothing to clean.
    }
  };

  /** Copies `source` over `target` through a temp file: a hard link where possible, else the bytes. */
  const replaceByCopy = async (source: string, target: string, from: string, linkError?: unknown): Promise<void> => {
    const code = linkError === undefined ? undefined : errnoCode(linkError);
    if (code === 'ENOENT') throw new FileNotFoundError({ path: from, location: source, cause: linkError });
    if (code !== undefined && code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw linkError;
    const temp = tempPathFor(target);
    if (code === undefined) {
      try {
        await link(source, temp);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') throw new FileNotFoundError({ path: from, location: source, cause: error });
        throw error;
      }
    } else {
      // Filesystems without hard links: copy the bytes instead.
      await writeTemp(temp, await readFile(source, { flag: readFlags }));
    }
    try {
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  };

  const fail = (error: unknown, operation: string, path: string, target: string) =>
    toStoreError(error, { operation, path, location: target });

  return {
    async read(path) {
      const target = absolute(fileKey(path));
      try {
        if (!(await existingDirectory(dirname(target), path))) throw new FileNotFoundError({ path, location: target });
        return await readSmallFile(target);
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
          throw new FileNotFoundError({ path, location: target, cause: error });
        }
        if (code === 'ELOOP') {
          throw new InvalidPathError({ path, reason: 'is a symbolic link (not followed)', cause: error });
        }
        throw fail(error, 'read', path, target);
      }
    },

    async write(path, data) {
      const target = absolute(fileKey(path));
      try {
        await inDirectory(target, path, async (directory) => {
          const temp = tempPathFor(target);
          await writeTemp(temp, data);
          try {
            await rename(temp, target);
          } catch (error) {
            await unlink(temp).catch(() => undefined);
            throw error;
          }
          if (durable) await syncDirectory(directory);
        });
      } catch (error) {
        throw fail(error, 'write', path, target);
      }
    },

    async writeIfAbsent(path, data) {
      const target = absolute(fileKey(path));
      try {
        return await inDirectory(target, path, async (directory) => {
          const temp = tempPathFor(target);
          await writeTemp(temp, data);
          try {
            await link(temp, target);
          } catch (error) {
            if (errnoCode(error) === 'EEXIST') return false;
            throw error;
          } finally {
            await unlink(temp).catch(() => undefined);
          }
          if (durable) await syncDirectory(directory);
          return true;
        });
      } catch (error) {
        throw fail(error, 'writeIfAbsent', path, target);
      }
    },

    async copy(from, to) {
      const source = absolute(fileKey(from));
      const target = absolute(fileKey(to));
      try {
        if (!(await existingDirectory(dirname(source), from))) {
          throw new FileNotFoundError({ path: from, location: source });
        }
        await inDirectory(target, to, async (directory) => {
          // Usually the target does not exist yet (an event file published from its claim): one hard
          // link, atomic, and no data written again (event files are immutable, so sharing the inode is
          // safe). When it exists, link to a temp name and rename over it, to replace it atomically.
          try {
            await link(source, target);
          } catch (error) {
            await replaceByCopy(source, target, from, errnoCode(error) === 'EEXIST' ? undefined : error);
          }
          if (durable) await syncDirectory(directory);
        });
      } catch (error) {
        if (error instanceof FileNotFoundError) throw error;
        throw fail(error, 'copy', to, target);
      }
    },

    async list(prefix) {
      const directoryKey = validateStorePath(prefix, { allowTrailingSlash: true });
      const directory = absolute(directoryKey);
      try {
        if (!(await existingDirectory(directory, prefix))) return [];
        const entries = await readdir(directory, { withFileTypes: true });
        const result: string[] = [];
        const temps: string[] = [];
        for (const entry of entries) {
          if (TEMP_FILE_PATTERN.test(entry.name)) {
            temps.push(`${directory}${sep}${entry.name}`);
            continue;
          }
          const entryPath = joinStorePath(directoryKey, entry.name);
          let isDirectory = entry.isDirectory();
          let isFile = entry.isFile();
          if (entry.isSymbolicLink()) {
            const info = await stat(`${directory}${sep}${entry.name}`).catch(() => undefined);
            isDirectory = info?.isDirectory() ?? false;
            isFile = info?.isFile() ?? false;
          }
          if (isDirectory) result.push(`${entryPath}/`);
          else if (isFile) result.push(entryPath);
        }
        await Promise.all(temps.map(removeIfStale));
        return sortByCodePoint(result);
      } catch (error) {
        if (isMissing(error)) {
          // The prefix named a file (ENOTDIR) or vanished: it must not stay cached as a directory.
          forget(directory);
          return [];
        }
        throw fail(error, 'list', prefix, directory);
      }
    },

    async delete(path) {
      const target = absolute(validateStorePath(path));
      try {
        // The parent must resolve inside the root, or rm() could follow a symlinked directory out of it.
        if (!(await existingDirectory(dirname(target), path))) return;
        await rm(target, { recursive: true, force: true });
        forget(target);
        await pruneEmpty(dirname(target));
      } catch (error) {
        throw fail(error, 'delete', path, target);
      }
    },

    async exists(path) {
      const target = absolute(validateStorePath(path));
      try {
        if (!(await existingDirectory(dirname(target), path))) return false;
        const info = await stat(target);
        if (info.isFile()) return true;
        return info.isDirectory() && (await isNonEmptyDirectory(target));
      } catch (error) {
        if (isMissing(error)) return false;
        throw fail(error, 'exists', path, target);
      }
    },

    describe(path) {
      return absolute(validateStorePath(path, { allowTrailingSlash: true }));
    },
  };
}

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return `${homedir()}${path.slice(1)}`;
  return path;
}
