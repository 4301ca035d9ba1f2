import { readFileSync } from 'node:fs';

/** Where this process reads its mount table (`proc(5)`: one line per mount, its mount point the fifth field). */
const MOUNTINFO = '/proc/self/mountinfo';

/** A mount point as mountinfo writes it: space, tab, newline and backslash as three-digit octal escapes. */
function unescapeMountPoint(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** Every mount point of a mountinfo text, in the table's order. */
export function parseMountPoints(mountinfo: string): string[] {
  const points: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const field = line.split(' ')[4];
    if (field?.startsWith('/')) points.push(unescapeMountPoint(field));
  }
  return points;
}

/**
 * The mount points strictly below any of `roots` (absolute, real paths), once each. bubblewrap binds a policy's path
 * with every mount below it (`MS_REC`), so what is mounted there (a bind of the store, of the temporary directory
 * holding the sandboxes' private root, of `/`) is in the sandbox too, at a path no check of the policy's own paths
 * looks at. `mountinfo`: the table's text (this process's own unless a test gives one); an unreadable table (no
 * /proc) shows none.
 */
export function mountPointsBelow(roots: readonly string[], mountinfo?: string): string[] {
  let text = mountinfo;
  if (text === undefined) {
    try {
      text = readFileSync(MOUNTINFO, 'utf8');
    } catch {
      return [];
    }
  }
  const below = new Set<string>();
  for (const point of parseMountPoints(text)) {
    if (roots.some((root) => point !== root && (root === '/' || point.startsWith(`${root}/`)))) below.add(point);
  }
  return [...below];
}
