import { closeSync, constants, fstatSync, lstatSync, readFileSync, writeSync } from 'node:fs';
import type { AppendFile, StoreWrite } from '../file-store.js';
import { type DirectoryHandle, openDirectory, syncDirectory } from './confined-directory.js';
import { closeFd, fdatasyncFd, openFd, preadFd } from './fs-calls.js';
import { errnoCode } from './local-fs.js';
import type { LocalWritePairDeps } from './local-write-pair.js';
import { notRegular } from './regular-file.js';

const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

/**
 * The local store's `openAppendFile`: the file opened with `O_APPEND` inside its confined directory. Linux
 * takes the inode's lock for each `write` to a regular file, so one `write` of a record is never interleaved
 * with another writer's (in this process or another) and lands whole at the end of the file. A new file's
 * directory entry is fsynced once, when it is created; each append is then one `write` and one `fdatasync`.
 */
export async function openAppendFileLocal(deps: LocalWritePairDeps, path: string): Promise<AppendFile> {
  const { segments, name, location } = deps.fileKey(path);
  let fd: number;
  let scope: string | undefined;
  try {
    const directory = (await openDirectory(deps.root, segments, {
      create: true,
      storePath: path,
      durable: deps.durable,
    }))!;
    try {
      fd = await openOrCreate(directory, name, deps.durable);
    } finally {
      await directory.close();
    }
    const info = fstatSync(fd);
    if (!info.isFile()) {
      closeSync(fd);
      throw notRegular(info, { storePath: path, location });
    }
    const boot = bootId();
    scope = boot === undefined ? undefined : `${boot}:${info.dev}:${info.ino}`;
  } catch (error) {
    throw deps.fail(error, 'openAppendFile', path, location);
  }
  let closed = false;
  return {
    scope,
    async append(data) {
      try {
        // Synchronous: the page-cache copy takes microseconds, less than a trip through the thread pool.
        const written = writeSync(fd, data);
        if (written !== data.length) {
          throw new Error(`only ${written} of ${data.length} bytes were appended (is the disk full?)`);
        }
        if (deps.durable) await fdatasyncFd(fd);
        // An fstat, not a probe read at the expected end (tried: on a `relatime` mount a read after each write
        // updates the inode's atime, one more journal update per commit; measured slower in the durable loop).
        return fstatSync(fd).size;
      } catch (error) {
        throw deps.fail(error, 'append', path, location);
      }
    },
    async readFrom(offset, length) {
      try {
        const wanted = length ?? fstatSync(fd).size - offset;
        const buffer = Buffer.allocUnsafe(Math.max(0, wanted));
        for (let done = 0; done < buffer.length; ) {
          const read = await readAt(fd, buffer, done, offset + done);
          if (read === 0) return buffer.subarray(0, done);
          done += read;
        }
        return buffer;
      } catch (error) {
        throw deps.fail(error, 'read', path, location);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await closeFd(fd);
    },
  };
}

let cachedBootId: string | null | undefined;

/**
 * The kernel's boot id (Linux: a random UUID per boot), or undefined where there is none. Within one boot the page
 * cache keeps every completed write, synced or not; only a reboot (a power loss among them) can lose one.
 */
function bootId(): string | undefined {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId ?? undefined;
}

/** Opens `name` for appending, creating it (and making its entry durable) when it is missing. */
async function openOrCreate(directory: DirectoryHandle, name: string, durable: boolean): Promise<number> {
  const file = `${directory.path}/${name}`;
  try {
    const fd = await openFd(file, APPEND_FLAGS | constants.O_CREAT | constants.O_EXCL, 0o644);
    if (durable) await syncDirectory(directory);
    return fd;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  return openFd(file, APPEND_FLAGS);
}

function readAt(fd: number, buffer: Buffer, at: number, position: number): Promise<number> {
  return preadFd(fd, buffer.subarray(at), position);
}

/**
 * The local store's `writeRebuildable`: each file a temp file and a rename, with synchronous calls and no fsync
 * (the caller rebuilds the files from a durable source after a power loss).
 */
export async function writeRebuildableLocal(deps: LocalWritePairDeps, files: readonly StoreWrite[]): Promise<void> {
  let directory: DirectoryHandle | undefined;
  let directoryKey: string | undefined;
  try {
    for (const file of files) {
      const key = deps.fileKey(file.path);
      const wanted = key.segments.join('/');
      try {
        if (wanted !== directoryKey) {
          await directory?.close();
          directory = undefined;
          directory = (await openDirectory(deps.root, key.segments, {
            create: true,
            durable: deps.durable,
            storePath: file.path,
            sync: true,
          }))!;
          directoryKey = wanted;
        }
        const into = directory!;
        const temp = await deps.writeTemp(into, key.name, file.data, false);
        await deps.replaceWith(temp, `${into.path}/${key.name}`, true);
      } catch (error) {
        throw deps.fail(error, 'write', file.path, key.location);
      }
    }
  } finally {
    await directory?.close();
  }
}

/** The local store's `fileSizes`: an lstat each, in one directory handle per run of paths in one directory. */
export async function fileSizesLocal(
  deps: LocalWritePairDeps,
  paths: readonly string[],
): Promise<(number | undefined)[]> {
  const sizes: (number | undefined)[] = [];
  let directory: DirectoryHandle | undefined;
  let directoryKey: string | undefined;
  try {
    for (const path of paths) {
      const key = deps.fileKey(path);
      const wanted = key.segments.join('/');
      if (wanted !== directoryKey) {
        await directory?.close();
        directory = await openDirectory(deps.root, key.segments, { create: false, storePath: path, sync: true });
        directoryKey = wanted;
      }
      if (directory === undefined) {
        sizes.push(undefined);
        continue;
      }
      try {
        const info = lstatSync(`${directory.path}/${key.name}`);
        sizes.push(info.isFile() ? info.size : undefined);
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw deps.fail(error, 'fileSizes', path, key.location);
        sizes.push(undefined);
      }
    }
  } finally {
    await directory?.close();
  }
  return sizes;
}
