import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { WorkspacePathError, type WorkspacePathProblem } from './workspace-path-error.js';

/** True when `candidate` is `root` or lies below it, lexically (both absolute and normalised). */
export function isPathInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Where `target` really lands once symlinks are followed. A path that does not exist yet is resolved through its
 * nearest existing ancestor; a dangling symlink on the way makes it unresolvable (`undefined`), because writing
 * through it would create its target, wherever that is.
 */
export async function resolveRealLocation(target: string): Promise<string | undefined> {
  const missing: string[] = [];
  let current = target;
  // A component created by someone else between the two calls below is resolved again (a bounded number of times).
  let retries = 8;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    try {
      // It exists but cannot be resolved: a dangling link (or it appeared just now: look again).
      const info = await lstat(current);
      if (info.isSymbolicLink() || retries === 0) return undefined;
      retries -= 1;
      continue;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    missing.push(basename(current));
    current = parent;
  }
}

/** Where a path confined by `confineToRoots` lands, or why it was refused. */
export type ConfinedPath =
  | {
      ok: true /** The path with every symlink followed. */;
      real: string /** The real root it lies in. */;
      realRoot: string;
    }
  | { ok: false; reason: 'outside'; real: string }
  | { ok: false; reason: 'dangling_symlink' };

/** errno codes a requested path itself causes while it is resolved, and what they say about it. */
const unresolvable: Readonly<Record<string, { reason: string; problem: WorkspacePathProblem }>> = {
  ELOOP: { reason: 'it goes through a symbolic link that loops', problem: 'link' },
  ENOTDIR: { reason: 'a component on the way is not a directory', problem: 'invalid' },
  ENAMETOOLONG: { reason: 'it (or a name in it) is too long for the file system', problem: 'invalid' },
};

/**
 * Follows every symlink of the absolute `path` and says in which of `roots` (each resolved through its own
 * symlinks; a root that does not exist is skipped) it really lands, or why it is refused: outside every root, or
 * through a symlink whose target does not exist. A check before use only: the caller still opens what it uses
 * without following a last link (O_NOFOLLOW, a verified directory descriptor), so that a link swapped in
 * afterwards cannot lead it out.
 *
 * A path that cannot be resolved at all (a symlink loop, a file used as a directory, a name too long) throws a
 * `WorkspacePathError` naming `shown` (default: `path`), never the bare errno error.
 */
export async function confineToRoots(
  path: string,
  roots: readonly string[],
  options: { shown?: string } = {},
): Promise<ConfinedPath> {
  const real = await resolveRealLocation(path).catch((error: NodeJS.ErrnoException) => {
    const known = typeof error?.code === 'string' ? unresolvable[error.code] : undefined;
    if (known === undefined) throw error;
    throw new WorkspacePathError(options.shown ?? path, known.reason, { cause: error, problem: known.problem });
  });
  if (real === undefined) return { ok: false, reason: 'dangling_symlink' };
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      continue;
    }
    if (isPathInside(realRoot, real)) return { ok: true, real, realRoot };
  }
  return { ok: false, reason: 'outside', real };
}
