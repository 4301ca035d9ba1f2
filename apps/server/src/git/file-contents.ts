import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isPathInside } from '@x/agent';
import { GitPathError } from './git-path-error.js';

/** The reference's cap on what a diff shows of one file, in bytes (either side). */
export const MAX_FILE_SIZE_FOR_GIT_DIFF = 1024 * 1024;

export function tooLarge(size: number): GitPathError {
  return new GitPathError(`File too large for git diff: ${size} bytes (max: ${MAX_FILE_SIZE_FOR_GIT_DIFF} bytes)`);
}

/** Python's `"\n".join(text.splitlines())`: line breaks normalised to `\n`, no final one. */
export function joinLines(text: string): string {
  const withoutLast = text.replace(/(\r\n|\r|\n)$/, '');
  return withoutLast.split(/\r\n|\r|\n/).join('\n');
}

/**
 * The text of the work tree's file at `path` (already confined to the workspace, symlinks followed) for a diff:
 * opened without following a link swapped in since and without blocking on a FIFO, refused unless a regular file
 * of at most `MAX_FILE_SIZE_FOR_GIT_DIFF` bytes; empty when it is not UTF-8 (as in the reference).
 */
export async function readWorkTreeFile(path: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new GitPathError(`File does not exist: ${path}`);
    throw new GitPathError(`Cannot access file: ${path}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new GitPathError(`Not a regular file: ${path}`);
    if (info.size > MAX_FILE_SIZE_FOR_GIT_DIFF) throw tooLarge(info.size);
    // Read to the cap and one byte past it: a file that grew since the stat is still refused.
    const buffer = Buffer.alloc(MAX_FILE_SIZE_FOR_GIT_DIFF + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_FILE_SIZE_FOR_GIT_DIFF) throw tooLarge(length);
    }
    try {
      return joinLines(new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, length)));
    } catch {
      return '';
    }
  } finally {
    await handle.close();
  }
}

/**
 * The closest directory holding `.git` (a directory, or a file of a linked work tree) from the directory of
 * `path` upwards, never above `root` (both real paths); undefined when there is none.
 */
export async function closestRepositoryTop(path: string, root: string): Promise<string | undefined> {
  for (let current = dirname(path); isPathInside(root, current); current = dirname(current)) {
    if ((await lstat(join(current, '.git')).catch(() => undefined)) !== undefined) return current;
    if (current === root) break;
  }
  return undefined;
}
