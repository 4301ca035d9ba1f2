import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { confineToRoots } from './confine-to-roots.js';
import { openOrCreateDirectory, openVerifiedDirectory, type VerifiedDirectory } from './verified-directory.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** Longest path accepted (Linux PATH_MAX); longer ones are refused before the file system sees them. */
const maxPathLength = 4096;

/**
 * Refuses a path no file system call should see: empty, too long, or with a NUL byte (Node throws a
 * non-file-system error for those, which would otherwise surface as an internal failure).
 */
export function checkPathText(path: string, shown: string = path): void {
  if (path === '') throw new WorkspacePathError(shown, 'it is empty', { problem: 'invalid' });
  if (path.includes('\0')) throw new WorkspacePathError(shown, 'it contains a NUL byte', { problem: 'invalid' });
  if (path.length > maxPathLength) {
    throw new WorkspacePathError(shown.slice(0, 64), `it is longer than ${maxPathLength} characters`, {
      problem: 'invalid',
    });
  }
}

/** A file's verified parent directory (open: close it), its name there, and where it really is. */
export interface WorkspaceEntry {
  directory: VerifiedDirectory;
  name: string;
  /** The path with every symlink followed. */
  real: string;
  /** The real root it lies in. */
  realRoot: string;
}

/**
 * Opens the parent directory of the absolute `path` inside one of `roots` (creating missing directories with
 * `create`), for a file operation through `openRegularFile` / `replaceFileAtomically`. Symlinks inside the
 * workspace are followed to check where the path lands; at use, no link is followed at all and the opened
 * directory is verified to still lie inside the root.
 */
export async function openWorkspaceEntry(
  roots: readonly string[],
  path: string,
  options: { create: boolean; shown?: string },
): Promise<WorkspaceEntry> {
  const shown = options.shown ?? path;
  checkPathText(path, shown);
  if (!isAbsolute(path)) throw new WorkspacePathError(shown, 'it must be absolute', { problem: 'invalid' });
  const confined = await confineToRoots(resolve(path), roots, { shown });
  if (!confined.ok) {
    if (confined.reason === 'dangling_symlink') {
      throw new WorkspacePathError(shown, 'it goes through a symlink whose target does not exist', { problem: 'link' });
    }
    throw new WorkspacePathError(shown, 'it lies outside the workspace');
  }
  const { real, realRoot } = confined;
  if (real === realRoot) throw new WorkspacePathError(shown, 'it is the workspace directory', { problem: 'directory' });
  const directory = options.create
    ? await openOrCreateDirectory(realRoot, dirname(real), shown)
    : await openVerifiedDirectory(realRoot, dirname(real), shown);
  return { directory, name: basename(real), real, realRoot };
}
