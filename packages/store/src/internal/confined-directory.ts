import { closeSync, constants, fstatSync, openSync, statSync } from 'node:fs';
import { lstat, mkdir } from 'node:fs/promises';
import { InvalidPathError } from '../errors/invalid-path-error.js';
import { closeFd, fsyncFd, openFd } from './fs-calls.js';
import { errnoCode } from './local-fs.js';

/**
 * A directory the store may work in, named by a path that cannot be redirected once the directory
 * was checked. On Linux that path is `/proc/self/fd/<fd>` for a descriptor opened with `O_NOFOLLOW`:
 * the kernel resolves it to the opened directory itself, so a later swap of any directory on the way
 * (for a symbolic link, or for another directory) cannot change where `path/name` lands. This is
 * `openat()` for Node, which has no `*at` calls. Elsewhere `path` is the absolute path, checked
 * component by component with `lstat` just before use (a narrower guarantee: see the README).
 */
export interface DirectoryHandle {
  readonly path: string;
  /** The descriptor behind `path`, when it is anchored by one. */
  readonly fd: number | undefined;
  close(): Promise<void>;
}

export interface ConfinedRoot {
  readonly handle: DirectoryHandle;
  /** The root's real path (for messages and `describe`). */
  readonly realPath: string;
}

const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
const NOTHING_TO_CLOSE = async (): Promise<void> => undefined;

/** Roots opened so far, by real path, shared by the stores on that directory while any is reachable. */
const openRoots = new Map<string, WeakRef<ConfinedRoot>>();

/** Closes a root's descriptor once no store can use it any more, and forgets it. */
const rootDescriptors = new FinalizationRegistry<{ fd: number; realPath: string }>(({ fd, realPath }) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
  if (openRoots.get(realPath)?.deref() === undefined) openRoots.delete(realPath);
});

/**
 * Opens the store's root, a directory that exists and whose real path is `realPath`. The returned
 * root object must stay reachable from every closure that uses its handle: its descriptor is
 * closed when the root object is collected.
 */
export function openConfinedRoot(realPath: string): ConfinedRoot {
  if (process.platform === 'linux') {
    // Stores on the same directory share one descriptor (many conversations use one persistence
    // directory), as long as that path still names the directory the descriptor was opened on.
    const shared = openRoots.get(realPath)?.deref();
    if (shared?.handle.fd !== undefined && isSameDirectory(realPath, shared.handle.fd)) return shared;
    const fd = openSync(realPath, DIRECTORY_FLAGS);
    const anchored = `/proc/self/fd/${fd}`;
    if (isSameDirectory(anchored, fd)) {
      const root: ConfinedRoot = { handle: { path: anchored, fd, close: NOTHING_TO_CLOSE }, realPath };
      rootDescriptors.register(root, { fd, realPath });
      openRoots.set(realPath, new WeakRef(root));
      return root;
    }
    closeSync(fd);
  }
  return { handle: { path: realPath, fd: undefined, close: NOTHING_TO_CLOSE }, realPath };
}

/** True when `path` (e.g. `/proc/self/fd/N`) is the directory the descriptor was opened on. */
function isSameDirectory(path: string, fd: number): boolean {
  try {
    const viaProc = statSync(path);
    const opened = fstatSync(fd);
    return viaProc.isDirectory() && viaProc.ino === opened.ino && viaProc.dev === opened.dev;
  } catch {
    return false;
  }
}

export interface OpenDirectoryOptions {
  /** Create missing directories (each one checked the same way once made). */
  readonly create: boolean;
  /** The store path being worked on, for messages. */
  readonly storePath: string;
  /**
   * Open with synchronous system calls (the local store's `durability: 'none'` writes): an `open` of a
   * directory costs microseconds, less than the thread-pool round trip of the asynchronous call.
   */
  readonly sync?: boolean;
  /** The segments from the root to where the walk starts, when it starts below the root (for messages). */
  readonly above?: readonly string[];
  /**
   * Make a directory the walk creates durable in its parent (fsync the parent after the `mkdir`): a durable write
   * into a new directory is only on disk once the directory's own entry is (POSIX; a journal usually covers it).
   */
  readonly durable?: boolean;
}

/**
 * Opens the directory `segments` below the root one component at a time, never following a
 * symbolic link: a link anywhere on the way is an `InvalidPathError`. Resolves `undefined` when a
 * component is missing or is not a directory (unless `create`, where a non-directory is the
 * system's error). The caller closes the handle.
 */
export async function openDirectory(
  root: ConfinedRoot,
  segments: readonly string[],
  options: OpenDirectoryOptions,
): Promise<DirectoryHandle | undefined> {
  let current = root.handle;
  for (let depth = 0; depth < segments.length; depth++) {
    let next: DirectoryHandle | undefined;
    try {
      next = await openChild(current, segments[depth]!, options);
    } catch (error) {
      const kind = await classifyFailure(current.path, segments[depth]!, error);
      await current.close();
      if (kind === 'link') {
        throw new InvalidPathError({
          path: options.storePath,
          reason: `${JSON.stringify([...(options.above ?? []), ...segments.slice(0, depth + 1)].join('/'))} is a symbolic link (not followed)`,
          cause: error,
        });
      }
      if (kind === 'absent' && !options.create) return undefined;
      throw error;
    }
    await current.close();
    current = next;
  }
  return current;
}

/**
 * Opens the directory `name` inside `parent` without following a link; `undefined` when there is no
 * directory there (missing, a file, a link).
 */
export async function openDirectoryAt(parent: DirectoryHandle, name: string): Promise<DirectoryHandle | undefined> {
  try {
    return await openChild(parent, name, { create: false });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined;
    throw error;
  }
}

async function openChild(
  parent: DirectoryHandle,
  name: string,
  options: Pick<OpenDirectoryOptions, 'create' | 'sync' | 'durable'>,
): Promise<DirectoryHandle> {
  const path = `${parent.path}/${name}`;
  const madeDurable = options.durable ? () => syncDirectory(parent) : undefined;
  if (parent.fd === undefined) return openChildByPath(path, options.create, madeDurable);
  try {
    return anchoredHandle(options.sync ? openSync(path, DIRECTORY_FLAGS) : await openFd(path, DIRECTORY_FLAGS));
  } catch (error) {
    if (!options.create || errnoCode(error) !== 'ENOENT') throw error;
  }
  // mkdir never follows a link in its last component (a dangling link is EEXIST): nothing is
  // created outside the directory, and the open below checks what is there now.
  const created = await mkdir(path).then(
    () => true,
    (error: unknown) => {
      if (errnoCode(error) !== 'EEXIST') throw error;
      return false;
    },
  );
  if (created) await madeDurable?.();
  return anchoredHandle(await openFd(path, DIRECTORY_FLAGS));
}

function anchoredHandle(fd: number): DirectoryHandle {
  return { path: `/proc/self/fd/${fd}`, fd, close: async () => closeSync(fd) };
}

/** The fallback without `/proc`: the path itself, after `lstat` shows a real directory. */
async function openChildByPath(
  path: string,
  create: boolean,
  madeDurable: (() => Promise<void>) | undefined,
): Promise<DirectoryHandle> {
  const info = await lstat(path).catch(async (error: unknown) => {
    if (!create || errnoCode(error) !== 'ENOENT') throw error;
    const created = await mkdir(path).then(
      () => true,
      (mkdirError: unknown) => {
        if (errnoCode(mkdirError) !== 'EEXIST') throw mkdirError;
        return false;
      },
    );
    if (created) await madeDurable?.();
    return lstat(path);
  });
  if (info.isSymbolicLink()) throw Object.assign(new Error(`${path} is a symbolic link`), { code: 'ELOOP' });
  if (!info.isDirectory()) throw Object.assign(new Error(`${path} is not a directory`), { code: 'ENOTDIR' });
  return { path, fd: undefined, close: NOTHING_TO_CLOSE };
}

/** Why a directory could not be opened: a symbolic link, missing/not a directory, or anything else. */
async function classifyFailure(parent: string, name: string, error: unknown): Promise<'link' | 'absent' | 'other'> {
  const code = errnoCode(error);
  if (code === 'ENOENT') return 'absent';
  if (code !== 'ENOTDIR' && code !== 'ELOOP') return 'other';
  // O_DIRECTORY | O_NOFOLLOW reports a link as ENOTDIR on Linux: look at what is there.
  const info = await lstat(`${parent}/${name}`).catch(() => undefined);
  return info?.isSymbolicLink() ? 'link' : 'absent';
}

/** Flushes a directory's entries (a new name from rename/link, a removed one) to disk. */
export async function syncDirectory(handle: DirectoryHandle): Promise<void> {
  if (handle.fd !== undefined) return fsyncFd(handle.fd);
  const fd = await openFd(handle.path, constants.O_RDONLY);
  try {
    await fsyncFd(fd);
  } finally {
    await closeFd(fd);
  }
}
