import { link, lstat, rename, unlink } from 'node:fs/promises';
import { FileNotFoundError } from '../errors/file-not-found-error.js';
import { InvalidPathError } from '../errors/invalid-path-error.js';
import type { DirectoryHandle } from './confined-directory.js';
import { errnoCode, tempNameFor } from './local-fs.js';
import type { LocalWritePairDeps } from './local-write-pair.js';
import { notRegular, readRegularFile } from './regular-file.js';

// The local store's `copy`: its checks on the source and the hard link (or byte copy) into the target.

/** The source of a copy must be a regular file: checked before linking, so a FIFO or link is never published. */
export async function checkCopySource(sourcePath: string, context: { storePath: string; location: string }) {
  const info = await lstat(sourcePath).catch((error: unknown) => {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new FileNotFoundError({ path: context.storePath, location: context.location, cause: error });
    }
    throw error;
  });
  if (info.isDirectory()) throw new FileNotFoundError({ path: context.storePath, location: context.location });
  if (info.isSymbolicLink()) {
    throw new InvalidPathError({ path: context.storePath, reason: 'is a symbolic link (not followed)' });
  }
  if (!info.isFile()) throw notRegular(info, context);
}

/**
 * Usually the target does not exist yet (an event file published from its claim): one hard link,
 * atomic, and no data written again (event files are immutable, so sharing the inode is safe).
 * When it exists, link to a temp name and rename over it, to replace it atomically; where hard
 * links are unsupported, copy the bytes (read the same confined way as `read`).
 */
export async function copyInto(
  deps: Pick<LocalWritePairDeps, 'writeTemp' | 'replaceWith'>,
  sourcePath: string,
  directory: DirectoryHandle,
  name: string,
  sourceContext: { storePath: string; location: string },
): Promise<void> {
  const { writeTemp, replaceWith } = deps;
  const targetPath = `${directory.path}/${name}`;
  let linkError: unknown;
  try {
    // link() does not follow a link in its source: a source swapped for one after the check is
    // published as that link, which every read refuses.
    await link(sourcePath, targetPath);
    return;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') linkError = error;
  }
  const code = linkError === undefined ? undefined : errnoCode(linkError);
  if (code === 'ENOENT') throw await whichIsMissing(linkError, sourcePath, sourceContext);
  if (code !== undefined && code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw linkError;
  if (code === undefined) {
    const temp = `${directory.path}/${tempNameFor(name)}`;
    try {
      await link(sourcePath, temp);
      await rename(temp, targetPath);
      // rename() between two links of one inode (a copy onto itself) leaves both names in place.
      await unlink(temp).catch(() => undefined);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      if (errnoCode(error) === 'ENOENT') throw await whichIsMissing(error, sourcePath, sourceContext);
      throw error;
    }
    return;
  }
  const bytes = await readRegularFile(sourcePath, sourceContext);
  await replaceWith(await writeTemp(directory, name, bytes), targetPath);
}

/**
 * link() and rename() say ENOENT both when the source is gone and when the target's directory is (a concurrent
 * delete pruned it after it was opened). Only the first is the copy's FileNotFoundError; the second stays the
 * system's error, which the store's walk answers by opening the directory again.
 */
async function whichIsMissing(
  error: unknown,
  sourcePath: string,
  sourceContext: { storePath: string; location: string },
): Promise<unknown> {
  const sourceIsThere = await lstat(sourcePath).then(
    () => true,
    () => false,
  );
  if (sourceIsThere) return error;
  return new FileNotFoundError({ path: sourceContext.storePath, location: sourceContext.location, cause: error });
}
