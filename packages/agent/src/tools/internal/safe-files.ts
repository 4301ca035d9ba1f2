import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, open, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isPathInside } from '../../paths/index.js';
import { WorkspacePathError } from '../workspace-path-error.js';

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

function describeKind(info: Awaited<ReturnType<typeof lstat>>): string {
  if (info.isSymbolicLink()) return 'a symbolic link';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isDirectory()) return 'a directory';
  return 'not a regular file';
}

/**
 * Opens `dir` without following a final symlink and checks where the descriptor really points: inside
 * `realRoot`, or the call fails. Whatever is swapped in on the way after this, entries are reached through the
 * descriptor.
 */
export async function openVerifiedDirectory(realRoot: string, dir: string, shown: string): Promise<VerifiedDirectory> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') {
      throw new WorkspacePathError(shown, `the directory ${dir} was replaced by a link or a file`, { cause: error });
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

/**
 * Reads a regular file of a verified directory. O_NOFOLLOW refuses a link swapped in; O_NONBLOCK keeps a FIFO
 * from blocking the open; the descriptor's own type is checked before anything is read.
 */
export async function readRegularFile(directory: VerifiedDirectory, name: string, shown: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(join(directory.base, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new WorkspacePathError(shown, 'it is a symbolic link, which the editor does not follow here', {
        cause: error,
      });
    }
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new WorkspacePathError(shown, `it is ${describeKind(info)}, not a regular file`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Replaces (or creates, with `exclusive`) a file of a verified directory: the text goes to a new temporary file
 * there, which is then renamed over the name. The old inode is never written, so a hard link to a file outside
 * the workspace is replaced, not written through; a reader never sees half a file.
 */
export async function writeFileAtomically(
  directory: VerifiedDirectory,
  name: string,
  text: string,
  options: { exclusive: boolean; shown: string },
): Promise<void> {
  const target = join(directory.base, name);
  let mode = 0o644;
  const kind = await entryKind(directory, name);
  if (kind === 'file') {
    if (options.exclusive) throw new WorkspacePathError(options.shown, 'the file already exists');
    mode = (await lstat(target)).mode & 0o7777;
  } else if (kind !== 'missing') {
    throw new WorkspacePathError(
      options.shown,
      `it is ${typeof kind === 'string' ? 'a directory' : kind.other}, not a regular file`,
    );
  }
  const temporary = join(directory.base, `.${basename(name)}.x-edit-${randomBytes(6).toString('hex')}`);
  const handle = await open(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode,
  );
  try {
    await handle.writeFile(text, 'utf8');
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
  try {
    if (options.exclusive && (await entryKind(directory, name)) !== 'missing') {
      throw new WorkspacePathError(options.shown, 'the file already exists');
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
