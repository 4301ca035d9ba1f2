import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { checkPathText, confineToRoots, isPathInside, WorkspacePathError } from '../../paths/index.js';

export type WorkspacePathResult =
  | { ok: true; path: string; real: string; realRoot: string }
  | {
      ok: false;
      path: string;
      message: string;
      /** A file stands where a directory of the path should be: to the reference, the path does not exist. */
      throughFile?: boolean;
    };

/**
 * Resolves a file-editor path (relative to the workspace, or absolute) and refuses anything that ends up outside
 * the workspace, lexically (`../x`, `/etc/passwd`) or through a symlink. This is the first check only: the
 * editor opens what it uses relative to a verified directory descriptor (see `safe-files.ts`), so a link swapped
 * in afterwards cannot lead it out.
 */
export async function resolveWorkspacePath(workspace: string, requested: string): Promise<WorkspacePathResult> {
  try {
    checkPathText(requested);
  } catch (error) {
    if (!WorkspacePathError.isInstance(error)) throw error;
    return { ok: false, path: requested.slice(0, 64), message: error.message };
  }
  const root = resolve(workspace);
  const realRoot = await realpath(root);
  const path = isAbsolute(requested) ? resolve(requested) : resolve(root, requested);
  const refuse = (where: string): WorkspacePathResult => ({
    ok: false,
    path,
    message: `Invalid path '${requested}': it resolves to ${where}, outside the workspace ${root}. Only files inside the workspace can be viewed or edited.`,
  });
  if (!isPathInside(root, path) && !isPathInside(realRoot, path)) return refuse(path);
  let confined: Awaited<ReturnType<typeof confineToRoots>>;
  try {
    confined = await confineToRoots(path, [realRoot], { shown: requested });
  } catch (error) {
    // A symlink loop, a file used as a directory, a name too long: refused like any other bad path.
    if (!WorkspacePathError.isInstance(error)) throw error;
    const throughFile = (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOTDIR';
    return { ok: false, path, message: error.message, ...(throughFile ? { throughFile } : {}) };
  }
  if (confined.ok) return { ok: true, path, real: confined.real, realRoot };
  if (confined.reason === 'dangling_symlink') {
    return {
      ok: false,
      path,
      message: `Invalid path '${requested}': it goes through a symlink whose target does not exist.`,
    };
  }
  return refuse(`${confined.real} (through a symlink)`);
}
