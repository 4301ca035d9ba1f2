import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import { FileNotFoundError } from '../errors/file-not-found-error.js';
import { InvalidPathError } from '../errors/invalid-path-error.js';
import { NotRegularFileError } from '../errors/not-regular-file-error.js';
import { closeFd, fstatFd, fsyncFd, openFd, readFd } from './fs-calls.js';
import { errnoCode } from './local-fs.js';

/**
 * `O_NONBLOCK`: opening a FIFO for reading returns at once instead of waiting for a writer (the
 * `fstat` that follows then refuses it). `O_NOFOLLOW`: a symbolic link in the last component fails.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CREATE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface FileContext {
  /** The store path as given, for errors. */
  readonly storePath: string;
  /** The absolute location, for errors. */
  readonly location: string;
}

/**
 * Reads a regular file, refusing anything else with a typed error before reading a byte: a
 * symbolic link (`InvalidPathError`), a FIFO, socket or device (`NotRegularFileError`); a directory
 * or a missing file is a `FileNotFoundError`. The entry is checked with `lstat` before it is opened
 * and again with `fstat` on the descriptor (opened `O_NONBLOCK | O_NOFOLLOW`), so an entry swapped
 * in between cannot slip through, and cannot make the read hang.
 */
export async function readRegularFile(path: string, context: FileContext): Promise<Buffer> {
  // Checked before opening, so a FIFO is never opened at all (opening one for reading would release a
  // writer blocked on it); the flags and the fstat below cover an entry swapped in after this check.
  let entry: Stats;
  try {
    entry = await lstat(path);
  } catch (error) {
    throw classifyOpenError(error, context);
  }
  if (entry.isSymbolicLink()) {
    throw new InvalidPathError({ path: context.storePath, reason: 'is a symbolic link (not followed)' });
  }
  if (entry.isDirectory()) throw new FileNotFoundError({ path: context.storePath, location: context.location });
  if (!entry.isFile()) throw notRegular(entry, context);
  let fd: number;
  try {
    fd = await openFd(path, READ_FLAGS);
  } catch (error) {
    throw classifyOpenError(error, context);
  }
  try {
    const info = await fstatFd(fd);
    if (info.isDirectory()) throw new FileNotFoundError({ path: context.storePath, location: context.location });
    if (!info.isFile()) throw notRegular(info, context);
    return await readAll(fd, info.size);
  } finally {
    await closeFd(fd);
  }
}

/**
 * `readRegularFile` with synchronous calls and the same checks (lstat, then open `O_NONBLOCK | O_NOFOLLOW`, then
 * fstat), for bulk reads of small files: one syscall costs a few microseconds, one trip through libuv's thread pool
 * far more, and a file read takes five of them. Callers keep each batch short so the event loop is not held long.
 */
export function readRegularFileSync(path: string, context: FileContext, listedAsFile = false): Buffer {
  const { fd, size } = openRegularFileSync(path, context, listedAsFile);
  try {
    return readAllSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** From this size on, `readRegularFileBatched` reads the bytes through the thread pool. */
export const ASYNC_READ_FROM = 256 * 1024;

/**
 * `readRegularFileSync`, except that a file of `ASYNC_READ_FROM` bytes or more (a pack of the packed read cache,
 * 1.3 MB for 1,024 events) is read through libuv's thread pool after the synchronous checks: the promise lets
 * the caller go on (decode the pack before it) while the disk delivers, where a synchronous read of a file not
 * in the page cache would hold the thread for the whole transfer. The hop costs microseconds against that.
 */
export function readRegularFileBatched(
  path: string,
  context: FileContext,
  listedAsFile = false,
): Buffer | Promise<Buffer> {
  const { fd, size } = openRegularFileSync(path, context, listedAsFile);
  if (size < ASYNC_READ_FROM) {
    try {
      return readAllSync(fd, size);
    } finally {
      closeSync(fd);
    }
  }
  return readAll(fd, size).finally(() => closeSync(fd));
}

/** The checks of `readRegularFileSync` (lstat unless listed, open without following, fstat): the open descriptor. */
function openRegularFileSync(path: string, context: FileContext, listedAsFile: boolean): { fd: number; size: number } {
  // A directory listing that just said "regular file" stands in for the lstat (one syscall and one Stats
  // object less); an entry swapped since is still caught by O_NOFOLLOW and the fstat below.
  if (!listedAsFile) {
    let entry: Stats;
    try {
      entry = lstatSync(path);
    } catch (error) {
      throw classifyOpenError(error, context);
    }
    if (entry.isSymbolicLink()) {
      throw new InvalidPathError({ path: context.storePath, reason: 'is a symbolic link (not followed)' });
    }
    if (entry.isDirectory()) throw new FileNotFoundError({ path: context.storePath, location: context.location });
    if (!entry.isFile()) throw notRegular(entry, context);
  }
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    throw classifyOpenError(error, context);
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new FileNotFoundError({ path: context.storePath, location: context.location });
    if (!info.isFile()) throw notRegular(info, context);
    return { fd, size: info.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * `buffer` when it has room past `length`, else a copy twice its size: the file grew since fstat (someone
 * appends to it in place), so reading goes on to its end.
 */
function withRoom(buffer: Buffer<ArrayBuffer>, length: number): Buffer<ArrayBuffer> {
  if (length < buffer.length) return buffer;
  const larger = Buffer.allocUnsafe(buffer.length * 2);
  buffer.copy(larger, 0, 0, length);
  return larger;
}

function readAllSync(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.max(size, 1));
  let length = 0;
  for (;;) {
    buffer = withRoom(buffer, length);
    const bytesRead = readSync(fd, buffer, length, buffer.length - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length === size && size > 0) break;
  }
  return buffer.subarray(0, length);
}

/** The type of a non-regular entry, for messages. */
export function fileTypeOf(info: Stats): string {
  if (info.isSymbolicLink()) return 'symbolic link';
  if (info.isFIFO()) return 'FIFO';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice()) return 'character device';
  if (info.isBlockDevice()) return 'block device';
  if (info.isDirectory()) return 'directory';
  return 'special file';
}

export function notRegular(info: Stats, context: FileContext): NotRegularFileError {
  return new NotRegularFileError({ path: context.storePath, location: context.location, fileType: fileTypeOf(info) });
}

function classifyOpenError(error: unknown, context: FileContext): unknown {
  const code = errnoCode(error);
  const { storePath: path, location } = context;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new FileNotFoundError({ path, location, cause: error });
  }
  if (code === 'ELOOP')
    return new InvalidPathError({ path, reason: 'is a symbolic link (not followed)', cause: error });
  // open(2) of a Unix socket.
  if (code === 'ENXIO') return new NotRegularFileError({ path, location, fileType: 'socket', cause: error });
  return error;
}

/**
 * `writeNewFile` without fsync, in synchronous system calls: open, write and close of a small file take
 * microseconds each, less than the thread-pool round trip of each asynchronous call.
 */
function writeNewFileSync(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, CREATE_FLAGS, 0o666);
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to clean up.
    }
    throw error;
  }
  closeSync(fd);
}

async function readAll(fd: number, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(Math.max(size, 1));
  let length = 0;
  for (;;) {
    buffer = withRoom(buffer, length);
    const bytesRead = await readFd(fd, buffer, length);
    if (bytesRead === 0) break;
    length += bytesRead;
    if (length === size && size > 0) break;
  }
  return buffer.subarray(0, length);
}

/**
 * Creates `path`, which must not exist (`O_EXCL`, and `O_NOFOLLOW` so not even a dangling link is
 * followed), writes `data` and, when `durable`, fsyncs it. On failure the partial file is removed.
 * The open, write and close are synchronous calls (microseconds for a small file, less than a trip through
 * libuv's thread pool); only the fsync, which waits for the disk, goes through the pool.
 */
export async function writeNewFile(path: string, data: string | Uint8Array, durable: boolean): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (!durable) {
    writeNewFileSync(path, bytes);
    return;
  }
  const fd = openSync(path, CREATE_FLAGS, 0o666);
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    await fsyncFd(fd);
  } catch (error) {
    closeSync(fd);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  closeSync(fd);
}
