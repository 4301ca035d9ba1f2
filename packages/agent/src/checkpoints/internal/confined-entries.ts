import { constants, type Stats } from 'node:fs';
import { chmod, type FileHandle, lstat, mkdir, open, readdir, readlink, rm, rmdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { openOrCreateDirectory, openVerifiedDirectory } from '../../paths/verified-directory.js';
import { WorkspacePathError } from '../../paths/workspace-path-error.js';
import { CHECKPOINT_MODE_BITS } from '../checkpoint-manifest.js';

// Checkpoints read and write the workspace with the server's authority while the agent's background processes
// (the sandboxed shell session outlives a step) may still be changing it: a directory swapped for a link to the
// outside between a check and a use would let a snapshot copy a host file into a checkpoint (and a restore hand it
// to the agent), or a restore write outside the workspace. So every entry is reached through its parent directory's
// descriptor, verified to lie inside the workspace (`openVerifiedDirectory`), and opened without following a link.

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

function splitPath(path: string): { parent: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? { parent: '', name: path } : { parent: path.slice(0, slash), name: path.slice(slash + 1) };
}

/**
 * Runs `use` with a path naming `path`'s parent directory itself (`/proc/self/fd/<n>` on Linux), opened through
 * descriptors verified to lie inside `realRoot`; `create` makes missing parents, one verified component at a time.
 * A parent that is a link to the outside, a file, or was swapped for one, is a `WorkspacePathError`.
 */
async function inParent<T>(
  realRoot: string,
  path: string,
  create: boolean,
  use: (entry: string) => Promise<T>,
): Promise<T> {
  const { parent, name } = splitPath(path);
  const at = join(realRoot, parent);
  const directory = create
    ? await openOrCreateDirectory(realRoot, at, path)
    : await openVerifiedDirectory(realRoot, at, path);
  try {
    return await use(join(directory.base, name));
  } finally {
    await directory.close();
  }
}

/** An entry of a workspace directory: what `lstat` said of it (and a link's target), or why it could not be seen. */
export type ListedEntry = { name: string; info: Stats; target?: string } | { name: string; error: Error };

/** How many entries of one directory are looked at at once. */
const LSTATS_IN_FLIGHT = 64;

/**
 * The entries of the workspace directory `dir` ('' for the root), each looked at (and a link read) through the
 * directory's verified descriptor: a directory swapped for a link to the outside never shows an outside entry, nor
 * an outside link's target. An entry gone between the listing and the look is left out.
 */
export async function listDirectory(realRoot: string, dir: string): Promise<ListedEntry[]> {
  const directory = await openVerifiedDirectory(realRoot, join(realRoot, dir), dir === '' ? '.' : dir);
  try {
    const names = await readdir(directory.base);
    const listed: ListedEntry[] = [];
    for (let start = 0; start < names.length; start += LSTATS_IN_FLIGHT) {
      const batch = names.slice(start, start + LSTATS_IN_FLIGHT);
      for (const entry of await Promise.all(batch.map((name) => lookAt(join(directory.base, name), name)))) {
        if (entry !== undefined) listed.push(entry);
      }
    }
    return listed;
  } finally {
    await directory.close();
  }
}

async function lookAt(entry: string, name: string): Promise<ListedEntry | undefined> {
  try {
    const info = await lstat(entry);
    return info.isSymbolicLink() ? { name, info, target: await readlink(entry) } : { name, info };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { name, error: error as Error };
  }
}

/** What `readWorkspaceFile` read: the content and, stated before it was read, the file's stat. */
export interface ReadWorkspaceFile {
  content: Buffer;
  mtime_ms: number;
  ctime_ms: number;
  ino: number;
  mode: number;
}

/**
 * A regular file's content, mode, times and inode, all from one descriptor; undefined when it is gone. The stat
 * comes before the read, so a write during the read leaves a later stat different from the one returned.
 */
export async function readWorkspaceFile(realRoot: string, path: string): Promise<ReadWorkspaceFile | undefined> {
  try {
    return await inParent(realRoot, path, false, async (entry) => {
      let handle: FileHandle;
      try {
        handle = await open(entry, READ_FLAGS);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
          throw new WorkspacePathError(path, 'it was replaced by a symbolic link', { cause: error, problem: 'link' });
        }
        throw error;
      }
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw new WorkspacePathError(path, 'it is not a regular file', { problem: 'not_regular' });
        const mode = info.mode & CHECKPOINT_MODE_BITS;
        const stated = { mtime_ms: info.mtimeMs, ctime_ms: info.ctimeMs, ino: info.ino, mode };
        return { content: await handle.readFile(), ...stated };
      } finally {
        await handle.close();
      }
    });
  } catch (error) {
    const missing = WorkspacePathError.isInstance(error) && (error as WorkspacePathError).problem === 'missing';
    if (missing || (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Makes `path` a regular file holding `content`, with `mode` and `mtimeMs`, replacing whatever stands there (a
 * directory, a link: the link is removed, never followed). Created exclusively: an entry that appears in between
 * fails the write instead of being written through.
 */
export async function writeWorkspaceFile(
  realRoot: string,
  path: string,
  file: { content: Uint8Array; mode: number; mtimeMs: number },
): Promise<void> {
  await inParent(realRoot, path, true, async (entry) => {
    await removeAnything(realRoot, entry, path);
    // Masked here too, where the file is made: a manifest written before the mask, or by someone else, may name them.
    const mode = file.mode & CHECKPOINT_MODE_BITS;
    const handle = await open(entry, CREATE_FLAGS, mode);
    try {
      await handle.writeFile(file.content);
      await handle.chmod(mode);
      const seconds = file.mtimeMs / 1000;
      await handle.utimes(seconds, seconds);
    } finally {
      await handle.close();
    }
  });
}

/** Makes `path` a symbolic link to `target`, replacing whatever stands there. */
export async function writeWorkspaceSymlink(realRoot: string, path: string, target: string): Promise<void> {
  await inParent(realRoot, path, true, async (entry) => {
    await removeAnything(realRoot, entry, path);
    await symlink(target, entry);
  });
}

/**
 * Removes whatever stands at `entry` (a name under a verified descriptor): a file or link is unlinked, never
 * followed; a directory is emptied through its own verified descriptor, then removed. Not Node's recursive `rm`,
 * which walks by path: a subdirectory swapped for a link to the outside mid-walk would have it delete host files.
 */
async function removeAnything(realRoot: string, entry: string, shown: string): Promise<void> {
  let info: Stats;
  try {
    info = await lstat(entry);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!info.isDirectory()) {
    // A directory swapped in since the look fails the unlink (EISDIR) rather than being followed.
    await rm(entry, { force: true });
    return;
  }
  const directory = await openVerifiedDirectory(realRoot, entry, shown);
  try {
    for (const name of await readdir(directory.base)) {
      await removeAnything(realRoot, join(directory.base, name), `${shown}/${name}`);
    }
  } finally {
    await directory.close();
  }
  await rmdir(entry);
}

/** Removes the file or link `path` (nothing when it, or its parent, is gone). */
export async function removeWorkspaceEntry(realRoot: string, path: string): Promise<void> {
  try {
    await inParent(realRoot, path, false, (entry) => rm(entry, { force: true }));
  } catch (error) {
    if (WorkspacePathError.isInstance(error) && (error as WorkspacePathError).problem === 'missing') return;
    throw error;
  }
}

/** Makes `path` a directory, replacing a file or link standing there (removed, never followed); keeps one that is. */
export async function makeWorkspaceDirectory(realRoot: string, path: string): Promise<void> {
  await inParent(realRoot, path, true, async (entry) => {
    const info = await lstat(entry).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info?.isDirectory()) return;
    if (info !== undefined) await removeAnything(realRoot, entry, path);
    await mkdir(entry);
  });
}

/** Gives the directory `path` the mode `mode` (set-id bits dropped), through its verified descriptor. */
export async function setDirectoryMode(realRoot: string, path: string, mode: number): Promise<void> {
  const directory = await openVerifiedDirectory(realRoot, join(realRoot, path), path);
  try {
    await chmod(directory.base, mode & CHECKPOINT_MODE_BITS);
  } finally {
    await directory.close();
  }
}

/** Removes the directory `path` when it is empty; one that is not (or is gone) is left as it is. */
export async function removeEmptyDirectory(realRoot: string, path: string): Promise<void> {
  try {
    await inParent(realRoot, path, false, (entry) => rmdir(entry));
  } catch {
    // Not empty (what the checkpoint could not read, `.git`), gone, or no longer a directory: left alone.
  }
}

/**
 * Removes the directories above `path` that are now empty, up to the workspace (which stays) or the first one in
 * `keep` (a directory the checkpoint being restored has).
 */
export async function pruneEmptyParents(
  realRoot: string,
  path: string,
  keep: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (let parent = splitPath(path).parent; parent !== '' && !keep.has(parent); parent = splitPath(parent).parent) {
    try {
      await inParent(realRoot, parent, false, (entry) => rmdir(entry));
    } catch {
      return;
    }
  }
}
