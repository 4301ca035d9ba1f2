import { readMountInfo } from './mount-table-read.js';
import { identity } from './same-directory.js';

/** The mount table as one check of a command read it, with what earlier commands found for its mount points. */
export interface MountTableView {
  /** The table's text, or undefined where it cannot be read (no /proc). */
  mountinfo: string | undefined;
  /** `compute()` for the mount point `mountPoint`, or what it gave for the same `check` under the same table. */
  remember<T>(check: string, mountPoint: string, compute: () => T): T;
}

let last: { key: string; results: Map<string, unknown> } | undefined;

/**
 * The current mount table, remembering per mount point what the checks around the private root found, until the table
 * or one of `anchors` (the directories those checks compare against, by identity) changes. Safe for mount points
 * only: while a mount stays where the table says, its identity is its root's, and the directories on its way cannot
 * be swapped (one holding a mount point cannot be removed, and a rename moves the mount with it, changing its line
 * in the table). So with `readablePaths: ['/']`, a command stats the mounts that changed since the last, not every
 * one; the policy's own paths, which are not pinned so, are checked afresh each time by their callers.
 */
export function currentMountTable(anchors: readonly string[]): MountTableView {
  const mountinfo = readMountInfo();
  if (mountinfo === undefined) return { mountinfo, remember: (_check, _mountPoint, compute) => compute() };
  const key = [mountinfo, ...anchors.map((anchor) => identity(anchor) ?? '')].join('\0');
  if (last?.key !== key) last = { key, results: new Map() };
  const results = last.results;
  return {
    mountinfo,
    remember<T>(check: string, mountPoint: string, compute: () => T): T {
      const name = `${check}\0${mountPoint}`;
      if (results.has(name)) return results.get(name) as T;
      const found = compute();
      results.set(name, found);
      return found;
    },
  };
}
