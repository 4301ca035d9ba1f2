import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WorkspacePathError } from './workspace-path-error.js';

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Where `target` lands once symlinks are followed; a missing tail is resolved through its nearest existing ancestor. */
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
      // It exists but cannot be resolved: a dangling link; writing through it would create its target.
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
 * Resolves an absolute path of a workspace route and refuses (WorkspacePathError, 403) anything outside
 * every root, lexically or through a symlink; a relative path is a 400, as in the reference. The caller
 * opens the result with O_NOFOLLOW, so a link swapped in for the last component is refused at use too.
 */
export async function confinePath(requested: string, roots: readonly string[]): Promise<string> {
  if (!isAbsolute(requested)) throw new WorkspacePathError('Path must be absolute', 400);
  const path = resolve(requested);
  const real = await realLocation(path);
  if (real === undefined) {
    throw new WorkspacePathError(`Path '${requested}' goes through a symlink whose target does not exist`, 403);
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      continue;
    }
    if (isInside(realRoot, real)) return real;
  }
  throw new WorkspacePathError(`Path '${requested}' is outside the server's workspaces`, 403);
}
