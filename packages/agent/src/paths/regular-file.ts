import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { VerifiedDirectory } from './verified-directory.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** What a non-regular entry is, in words (for messages). */
export function describeKind(info: Stats): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/** The kind of an entry of a verified directory, without following a link. */
export async function entryKind(
  directory: VerifiedDirectory,
  name: string,
): Promise<'missing' | 'file' | 'directory' | { other: string }> {
  try {
    const info = await lstat(join(directory.base, name));
    if (info.isFile()) return 'file';
    if (info.isDirectory()) return 'directory';
    return { other: describeKind(info) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
}

/** Refuses anything but a regular file with one name (and at most `maxBytes` long). */
function checkRegular(info: Stats, shown: string, maxBytes: number | undefined): void {
  if (info.isDirectory())
    throw new WorkspacePathError(shown, 'it is a directory, not a file', { problem: 'directory' });
  if (info.isSymbolicLink()) {
    throw new WorkspacePathError(shown, 'it is a symbolic link, which is not followed here', { problem: 'link' });
  }
  if (!info.isFile()) {
    throw new WorkspacePathError(shown, `it is ${describeKind(info)}, not a regular file`, { problem: 'not_regular' });
  }
  if (info.nlink > 1) {
    throw new WorkspacePathError(
      shown,
      `it has ${info.nlink} hard links; a file with another name (possibly outside the workspace) is not read`,
      { problem: 'hard_link' },
    );
  }
  if (maxBytes !== undefined && info.size > maxBytes) {
    throw new WorkspacePathError(shown, `it is ${info.size} bytes long, over the limit of ${maxBytes} bytes`, {
      problem: 'too_large',
    });
  }
}

/** An open regular file and its size when opened. */
export interface OpenedRegularFile {
  handle: FileHandle;
  size: number;
}

/**
 * Opens a regular file of a verified directory for reading. The entry is looked at first (a device is never
 * opened, a FIFO never waited on); the open itself is O_NOFOLLOW (a link swapped in is refused) and O_NONBLOCK (a
 * FIFO swapped in cannot block the open, nor Node's file threads); the descriptor's own type, link count and size
 * are checked before anything is read.
 */
export async function openRegularFile(
  directory: VerifiedDirectory,
  name: string,
  options: { shown: string; maxBytes?: number },
): Promise<OpenedRegularFile> {
  const path = join(directory.base, name);
  let before: Stats;
  try {
    before = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new WorkspacePathError(options.shown, 'no such file', { cause: error, problem: 'missing' });
    }
    throw error;
  }
  checkRegular(before, options.shown, options.maxBytes);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') {
      throw new WorkspacePathError(options.shown, 'it was replaced by a symbolic link', {
        cause: error,
        problem: 'link',
      });
    }
    if (code === 'ENXIO' || code === 'ENODEV') {
      throw new WorkspacePathError(options.shown, 'it was replaced by something that is not a regular file', {
        cause: error,
        problem: 'not_regular',
      });
    }
    if (code === 'ENOENT') {
      throw new WorkspacePathError(options.shown, 'no such file', { cause: error, problem: 'missing' });
    }
    throw error;
  }
  try {
    const info = await handle.stat();
    checkRegular(info, options.shown, options.maxBytes);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads a regular file of a verified directory as UTF-8 (see `openRegularFile` for what is refused). */
export async function readRegularFile(
  directory: VerifiedDirectory,
  name: string,
  options: {
    shown: string;
    maxBytes?: number;
    /** Refuse bytes that are not UTF-8 (`not_utf8`) instead of reading them as U+FFFD, for a caller that writes back. */
    strictUtf8?: boolean;
  },
): Promise<string> {
  const { handle, size } = await openRegularFile(directory, name, options);
  try {
    if (options.maxBytes === undefined) return decodeText(await handle.readFile(), options);
    // The file may grow after it was checked: never read more than the limit.
    let buffer = Buffer.alloc(Math.min(size, options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(options.maxBytes + 1 - length)]);
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > options.maxBytes) {
        throw new WorkspacePathError(options.shown, `it grew over the limit of ${options.maxBytes} bytes`, {
          problem: 'too_large',
        });
      }
    }
    return decodeText(buffer.subarray(0, length), options);
  } finally {
    await handle.close();
  }
}

/** The file's bytes as text: lossy (U+FFFD for what is not UTF-8), or refused when `strictUtf8` (a BOM is kept). */
function decodeText(bytes: Buffer, options: { shown: string; strictUtf8?: boolean }): string {
  if (options.strictUtf8 !== true) return bytes.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new WorkspacePathError(options.shown, 'it is not UTF-8 text', { problem: 'not_utf8' });
  }
}
