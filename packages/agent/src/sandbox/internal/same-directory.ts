import { statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * How an identity is read: `statSync`. A seam for the tests that count the stats a command costs (with
 * `readablePaths: ['/']`, one per mount point would be paid at every command but for `mount-table-memo`).
 */
export const identityStat = { stat: (path: string) => statSync(path, { bigint: true }) };

/**
 * A directory's identity, device and inode: the same for every path to it, where a path comparison sees two (a bind
 * mount, a second mount of the same filesystem). Undefined where it cannot be read.
 */
export function identity(path: string): string | undefined {
  try {
    const found = identityStat.stat(path);
    return `${found.dev}:${found.ino}`;
  } catch {
    return undefined;
  }
}

/** `path` and each directory above it, `path` first and `/` last (an absolute, normalised path). */
export function selfAndAncestors(path: string): string[] {
  const chain = [path];
  for (let current = path; dirname(current) !== current; current = dirname(current)) chain.push(dirname(current));
  return chain;
}

/**
 * Where `target` appears under `mounted` when `mounted` is, by identity, `target` or a directory above it (reached
 * through another path): `mounted` joined with `target`'s path below that directory, and only where that path is
 * `target` itself (a bind mount does not carry the mounts below its source). Undefined when `mounted` shows no
 * `target`.
 */
export function whereShownThrough(target: string, mounted: string): string | undefined {
  const mountedIdentity = identity(mounted);
  if (mountedIdentity === undefined) return undefined;
  const targetIdentity = identity(target);
  for (const ancestor of selfAndAncestors(target)) {
    if (identity(ancestor) !== mountedIdentity) continue;
    const shown = join(mounted, relative(ancestor, target));
    return identity(shown) === targetIdentity ? shown : undefined;
  }
  return undefined;
}

/**
 * `path` spelled from `directory` when it is, by identity, `directory` or lies inside it (through whichever path it
 * was spelled: `/mnt/tmp/a` is `/tmp/a` where /mnt/tmp is a bind mount of /tmp); undefined where it does not.
 */
export function respelledUnder(path: string, directory: string): string | undefined {
  const directoryIdentity = identity(directory);
  if (directoryIdentity === undefined) return undefined;
  const ancestor = selfAndAncestors(path).find((candidate) => identity(candidate) === directoryIdentity);
  return ancestor === undefined ? undefined : join(directory, relative(ancestor, path));
}

/** Whether `path` is, by identity, `directory` or lies inside it (through whichever path it was spelled). */
export function liesInside(path: string, directory: string): boolean {
  return respelledUnder(path, directory) !== undefined;
}

/** Whether `path` is, by identity, one of `directories`. */
export function isSameDirectory(path: string, directories: readonly string[]): boolean {
  const pathIdentity = identity(path);
  return pathIdentity !== undefined && directories.some((directory) => identity(directory) === pathIdentity);
}
