import { readMountInfo } from './mount-table-read.js';

/** One line of mountinfo: the fields the sandbox's checks read. */
export interface MountEntry {
  /** The filesystem's `major:minor` (third field): the same for every mount of one filesystem, binds included. */
  device: string;
  /** The directory of that filesystem the mount shows (fourth field): `/`, or a bind mount's source. */
  root: string;
  /** Where it is mounted (fifth field). */
  mountPoint: string;
}

/** A path as mountinfo writes it: space, tab, newline and backslash as three-digit octal escapes. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** Every mount of a mountinfo text, in the table's order. */
export function parseMountEntries(mountinfo: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of mountinfo.split('\n')) {
    const [, , device, root, mountPoint] = line.split(' ');
    if (device === undefined || root === undefined || !mountPoint?.startsWith('/')) continue;
    entries.push({ device, root: unescapeMountPath(root), mountPoint: unescapeMountPath(mountPoint) });
  }
  return entries;
}

/** Every mount point of a mountinfo text, in the table's order. */
export function parseMountPoints(mountinfo: string): string[] {
  return parseMountEntries(mountinfo).map((entry) => entry.mountPoint);
}

/**
 * The mount points strictly below any of `roots` (absolute, real paths), once each. bubblewrap binds a policy's path
 * with every mount below it (`MS_REC`), so what is mounted there (a bind of the store, of the temporary directory
 * holding the sandboxes' private root, of `/`) is in the sandbox too, at a path no check of the policy's own paths
 * looks at. `mountinfo`: the table's text (this process's own unless a test gives one); an unreadable table (no
 * /proc) shows none.
 */
export function mountPointsBelow(roots: readonly string[], mountinfo: string | undefined = readMountInfo()): string[] {
  if (mountinfo === undefined) return [];
  const below = new Set<string>();
  for (const point of parseMountPoints(mountinfo)) {
    if (roots.some((root) => point !== root && (root === '/' || point.startsWith(`${root}/`)))) below.add(point);
  }
  return [...below];
}
