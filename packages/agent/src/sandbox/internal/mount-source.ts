import { join, relative } from 'node:path';
import { isPathInside } from '../../paths/confine-to-roots.js';
import { readMountInfo } from './mount-table-read.js';
import { type MountEntry, parseMountEntries } from './mounts-below.js';

/** Where a path lies on its filesystem: the filesystem (`device`) and the path from its root. */
interface MountSource {
  device: string;
  path: string;
}

/**
 * Where `path` (absolute, real) lies on its filesystem, by the mount that holds it: the one at the deepest mount
 * point on its way, the last mounted there where several are (it covers the others).
 */
function sourceOf(path: string, entries: readonly MountEntry[]): MountSource | undefined {
  let holder: MountEntry | undefined;
  for (const entry of entries) {
    if (!isPathInside(entry.mountPoint, path)) continue;
    if (holder === undefined || entry.mountPoint.length >= holder.mountPoint.length) holder = entry;
  }
  return holder === undefined
    ? undefined
    : { device: holder.device, path: join(holder.root, relative(holder.mountPoint, path)) };
}

/**
 * `path` spelled from `directory` when, by the mount table, it is the same directory of the same filesystem as
 * `directory` or one inside it: a bind mount of a subdirectory of `directory` (`mount --bind <store>/<conversation>
 * <workspace>/data`) shows it at a path whose own ancestors are none of `directory`'s, which a comparison of paths, or
 * of the identities of the path's ancestors, misses. Undefined where it is not (or the table cannot be read).
 */
export function respelledByMountSource(
  path: string,
  directory: string,
  mountinfo: string | undefined = readMountInfo(),
): string | undefined {
  if (mountinfo === undefined) return undefined;
  const entries = parseMountEntries(mountinfo);
  const pathSource = sourceOf(path, entries);
  const directorySource = sourceOf(directory, entries);
  if (pathSource === undefined || directorySource === undefined) return undefined;
  if (pathSource.device !== directorySource.device || !isPathInside(directorySource.path, pathSource.path))
    return undefined;
  return join(directory, relative(directorySource.path, pathSource.path));
}
