import { lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import {
  type ConfinedRoot,
  type DirectoryHandle,
  openDirectory,
  openDirectoryAt,
  syncDirectory,
} from './confined-directory.js';
import { errnoCode, STALE_TEMP_AGE_MS, TEMP_FILE_PATTERN } from './local-fs.js';

const ignoreMissing = (error: unknown): void => {
  if (errnoCode(error) !== 'ENOENT') throw error;
};

/**
 * Removes the entry `name` of `parent`: a file, link or FIFO is unlinked (a link is never followed),
 * a directory is emptied the same way first, each level opened with `O_NOFOLLOW` below the last.
 * Resolves false when there was nothing to remove.
 */
export async function removeEntry(parent: DirectoryHandle, name: string): Promise<boolean> {
  const info = await lstat(`${parent.path}/${name}`).catch(ignoreMissing);
  if (info === undefined) return false;
  if (info.isDirectory()) await removeTree(parent, name);
  else await unlink(`${parent.path}/${name}`).catch(ignoreMissing);
  return true;
}

async function removeTree(parent: DirectoryHandle, name: string): Promise<void> {
  // A writer may add a file between emptying and rmdir: try again a few times, as `rm -r` would fail.
  for (let attempt = 0; ; attempt++) {
    const directory = await openDirectoryAt(parent, name);
    if (directory === undefined) {
      // Swapped for a link or a file since it was seen as a directory: remove that entry instead.
      await unlink(`${parent.path}/${name}`).catch(ignoreMissing);
      return;
    }
    try {
      for (const entry of await readdir(directory.path, { withFileTypes: true })) {
        if (entry.isDirectory()) await removeTree(directory, entry.name);
        else await unlink(`${directory.path}/${entry.name}`).catch(ignoreMissing);
      }
    } finally {
      await directory.close();
    }
    try {
      await rmdir(`${parent.path}/${name}`);
      return;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Removes now-empty directories from `segments` up towards the root (not the root), like S3 would
 * show them: stops at the first that is not empty. Each one is removed from its parent, opened the
 * confined way; with `durable` the parent's entries are fsynced.
 */
export async function pruneEmptyDirectories(
  root: ConfinedRoot,
  segments: readonly string[],
  options: { durable: boolean; storePath: string },
): Promise<void> {
  for (let depth = segments.length; depth > 0; depth--) {
    const parent = await openDirectory(root, segments.slice(0, depth - 1), {
      create: false,
      storePath: options.storePath,
    });
    if (parent === undefined) return;
    try {
      try {
        await rmdir(`${parent.path}/${segments[depth - 1]}`);
      } catch {
        // Not empty (or already gone, or not a directory): the directories above stay too.
        return;
      }
      if (options.durable) await syncDirectory(parent);
    } finally {
      await parent.close();
    }
  }
}

/** True when the directory `name` of `parent` holds anything besides temp files. */
export async function isNonEmptyDirectory(parent: DirectoryHandle, name: string): Promise<boolean> {
  const directory = await openDirectoryAt(parent, name);
  if (directory === undefined) return false;
  try {
    const names = await readdir(directory.path);
    return names.some((entry) => !TEMP_FILE_PATTERN.test(entry));
  } finally {
    await directory.close();
  }
}

/** Removes a temp file older than `STALE_TEMP_AGE_MS` (the leftover of an interrupted write). */
export async function removeIfStale(path: string): Promise<void> {
  try {
    const info = await lstat(path);
    if (Date.now() - info.mtimeMs > STALE_TEMP_AGE_MS) await unlink(path);
  } catch {
    // Already gone (its writer finished, or another lister removed it): nothing to clean.
  }
}
