import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { confineToRoots, isPathInside } from '../../paths/index.js';

export type WorkspacePathResult =
  | { ok: true; path: string; real: string; realRoot: string }
  | { ok: false; path: string; message: string };

/**
 * Resolves a file-editor path (relative to the workspace, or absolute) and refuses anything that ends up outside
 * the workspace, lexically (`../x`, `/etc/passwd`) or through a symlink. This is the first check only: the
 * editor opens what it uses relative to a verified directory descriptor (see `safe-files.ts`), so a link swapped
 * in afterwards cannot lead it out.
 */
export async function resolveWorkspacePath(workspace: string, requested: string): Promise<WorkspacePathResult> {
  if (requested === '' || requested.includes('\0')) {
    return { ok: false, path: requested, message: `Invalid path '${requested}': it is empty or contains a NUL byte.` };
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
  const confined = await confineToRoots(path, [realRoot]);
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
