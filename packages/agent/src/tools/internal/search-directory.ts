import { stat } from 'node:fs/promises';
import { resolveWorkspaceDirectory, type WorkspaceDirectory, WorkspacePathError } from '../../paths/index.js';

/** The directory a search tool (glob, grep) looks in, or the message of why it cannot. */
export type SearchDirectory =
  | { ok: true; directory: WorkspaceDirectory }
  | { ok: false; shown: string; message: string };

/**
 * Resolves a search tool's `path` (none: the workspace) inside the workspace. A path outside it (lexically or through
 * a symlink) gives the `WorkspacePathError` message; one that is not a directory the reference's message.
 */
export async function searchDirectory(
  workspace: string,
  requested: string | null | undefined,
): Promise<SearchDirectory> {
  let directory: WorkspaceDirectory;
  try {
    directory = await resolveWorkspaceDirectory(workspace, requested);
  } catch (error) {
    if (!WorkspacePathError.isInstance(error)) throw error;
    return { ok: false, shown: requested ?? workspace, message: error.message };
  }
  const info = await stat(directory.real).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    return { ok: false, shown: directory.path, message: `Search path '${directory.path}' is not a valid directory` };
  }
  return { ok: true, directory };
}

/** Newest first, then by path (a stable order for files of the same time). */
export function byModifiedDescending(
  a: { mtimeMs: number; path: string },
  b: { mtimeMs: number; path: string },
): number {
  return b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * A failure of the file system the model should hear about rather than a crashed step: a path refused on the way
 * (a directory moved out of the workspace mid-walk), or a directory that cannot be read (EACCES).
 */
export function searchFailureMessage(error: unknown): string | undefined {
  if (WorkspacePathError.isInstance(error)) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR' || code === 'EIO') {
    return `The search failed: ${(error as Error).message}`;
  }
  return undefined;
}
