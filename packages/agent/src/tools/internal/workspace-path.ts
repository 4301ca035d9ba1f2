import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside } from './safe-files.js';

export type WorkspacePathResult =
  | { ok: true; path: string; real: string; realRoot: string }
  | { ok: false; path: string; message: string };

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Where `target` really lands once symlinks are followed. A path that does not exist yet (for `create`) is resolved
 * through its nearest existing ancestor; a dangling symlink on the way is returned as unresolvable (`undefined`)
 * because writing through it would create its target, wherever that is.
 */
async function realLocation(target: string): Promise<string | undefined> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    try {
      await lstat(current);
      return undefined;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    missing.push(basename(current));
    current = parent;
  }
}

/**
 * Resolves a file-editor path (relative to the workspace, or absolute) and refuses anything that ends up outside
 * the workspace, lexically (`../x`, `/etc/passwd`) or through a symlink. This is the first check only: the
 * editor opens what it uses relative to a verified directory descriptor (see `safe-files.ts`), so a link swapped
 * in afterwards cannot lead it out.
 */
export async function resolveWorkspacePath(workspace: string, requested: string): Promise<WorkspacePathResult> {
  const root = resolve(workspace);
  const realRoot = await realpath(root);
  const path = isAbsolute(requested) ? resolve(requested) : resolve(root, requested);
  const refuse = (where: string): WorkspacePathResult => ({
    ok: false,
    path,
    message: `Invalid path '${requested}': it resolves to ${where}, outside the workspace ${root}. Only files inside the workspace can be viewed or edited.`,
  });
  if (!isInside(root, path) && !isInside(realRoot, path)) return refuse(path);
  const real = await realLocation(path);
  if (real === undefined) {
    return {
      ok: false,
      path,
      message: `Invalid path '${requested}': it goes through a symlink whose target does not exist.`,
    };
  }
  if (!isInside(realRoot, real)) return refuse(`${real} (through a symlink)`);
  return { ok: true, path, real, realRoot };
}
