import { constants, existsSync } from 'node:fs';
import { type FileHandle, mkdir, open, readlink, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isPathInside } from './confine-to-roots.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** Linux names every open file descriptor under /proc/self/fd: a path that follows the descriptor, not a name. */
const procFd = existsSync('/proc/self/fd');

/** A directory verified to lie inside the workspace, pinned by an open descriptor where the OS allows. */
export interface VerifiedDirectory {
  /** Path to use for entries of the directory: `/proc/self/fd/<n>` on Linux (immune to later swaps). */
  readonly base: string;
  /** The directory's real path (for messages). */
  readonly real: string;
  close(): Promise<void>;
}

/**
 * Opens `dir` without following a final symlink and checks where the descriptor really points: inside
 * `realRoot`, or the call fails. Whatever is swapped in on the way after this, entries are reached through the
 * descriptor. A directory is opened O_NONBLOCK too: opening something else in its place never waits.
 */
export async function openVerifiedDirectory(realRoot: string, dir: string, shown: string): Promise<VerifiedDirectory> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      throw new WorkspacePathError(shown, `the directory ${dir} was replaced by a link or a file`, {
        cause: error,
        problem: code === 'ELOOP' ? 'link' : 'not_regular',
      });
    }
    if (code === 'ENOENT') {
      throw new WorkspacePathError(shown, `the directory ${dir} does not exist`, { cause: error, problem: 'missing' });
    }
    throw error;
  }
  try {
    const real = procFd ? await readlink(`/proc/self/fd/${handle.fd}`) : await realpath(dir);
    if (!isPathInside(realRoot, real)) {
      throw new WorkspacePathError(shown, `it resolves to ${real}, outside the workspace ${realRoot}`);
    }
    if (!procFd) {
      // Without /proc, at least make sure the path still names the directory we opened.
      const [opened, named] = await Promise.all([handle.stat(), stat(real)]);
      if (opened.ino !== named.ino || opened.dev !== named.dev) {
        throw new WorkspacePathError(shown, `the directory ${dir} changed while it was being opened`);
      }
    }
    return { base: procFd ? `/proc/self/fd/${handle.fd}` : real, real, close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Opens the directory `realDir` (a real path inside `realRoot`, as `confineToRoots` gives it), creating what is
 * missing on the way. The walk goes one component at a time from the root, each created and opened through its
 * verified parent without following a link: a directory swapped for a link to the outside during the walk makes
 * it fail instead of creating directories out there.
 */
export async function openOrCreateDirectory(
  realRoot: string,
  realDir: string,
  shown: string,
): Promise<VerifiedDirectory> {
  if (!isPathInside(realRoot, realDir)) {
    throw new WorkspacePathError(shown, `it resolves to ${realDir}, outside the workspace ${realRoot}`);
  }
  const components = relative(realRoot, realDir)
    .split(sep)
    .filter((part) => part !== '');
  let current = await openVerifiedDirectory(realRoot, realRoot, shown);
  try {
    for (const component of components) {
      const next = join(current.base, component);
      await mkdir(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const opened = await openVerifiedDirectory(realRoot, next, shown);
      await current.close();
      current = opened;
    }
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}
