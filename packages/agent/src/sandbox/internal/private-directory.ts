import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isPathUnder } from '../bwrap-args.js';
import { InvalidSandboxPolicyError } from '../invalid-sandbox-policy-error.js';
import { SandboxUnavailableError } from '../sandbox-unavailable-error.js';
import { currentMountTable, type MountTableView } from './mount-table-memo.js';
import { mountPointsBelow } from './mounts-below.js';
import { isSameDirectory, liesInside, selfAndAncestors, whereShownThrough } from './same-directory.js';

/**
 * The host side of the sandbox keeps files of its own: each allowlist's proxy socket and bridge script, and the
 * seccomp filter while it is written. They live under one directory per user, the same for every x process of that
 * user (`<tmpdir>/x-sandbox-private-<uid>`, 0700, kept like tmux's socket directory), each process in its own
 * subdirectory of it, removed as it exits.
 *
 * One shared name, not one per process, because every sandbox hides it (`privateRootHiddenIn`): a policy that
 * mounts the host's temporary directory (`writablePaths: ['/tmp']`) or all of it (`readablePaths: ['/']`) would
 * otherwise show a command every other sandbox's proxy socket (a way out of `network: 'none'`, through another
 * sandbox's allowlist) and bridge script, and the seccomp filter of the next command to replace. A sandbox whose
 * own process made the root hides it, and so does every other's; inside, it is an empty read-only tmpfs, a mount
 * point that cannot be renamed or removed.
 */
const ROOT_PREFIX = 'x-sandbox-private-';

let root: string | undefined;
let processDirectory: string | undefined;

function uid(): number {
  return process.getuid?.() ?? 0;
}

/**
 * This user's root, made if missing, checked if found: a directory (not a symlink) owned by this user that no one
 * else can enter. Anything else (another user made it first, to read or replace what goes in it) is refused,
 * naming it: a sandbox is never started with its private files where others can reach them.
 */
export function sandboxPrivateRoot(): string {
  if (root !== undefined) return root;
  let path = join(tmpdir(), `${ROOT_PREFIX}${uid()}`);
  try {
    path = join(realpathSync(tmpdir()), `${ROOT_PREFIX}${uid()}`);
    mkdirSync(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new SandboxUnavailableError(`the sandbox's private directory ${path} could not be made`, { cause: error });
  }
  const found = lstatSync(path);
  const problem = !found.isDirectory()
    ? 'is not a directory'
    : found.uid !== uid()
      ? `belongs to uid ${found.uid}, not ${uid()}`
      : (found.mode & 0o077) !== 0
        ? `is open to others (mode ${(found.mode & 0o777).toString(8)})`
        : undefined;
  if (problem !== undefined)
    throw new SandboxUnavailableError(
      `the sandbox's private directory ${path} ${problem}; remove it, or set TMPDIR to a directory of this user's`,
    );
  root = path;
  return root;
}

/** Whether the process `pid` is alive (one of another user, which `kill` may not signal, counts as alive). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * This process's own directory under the root: made on first use, removed when the process exits. The directories
 * of processes that died without exiting (SIGKILL, a crash) are removed here, by the next process that makes its own.
 */
export function processPrivateDirectory(): string {
  if (processDirectory !== undefined) return processDirectory;
  const root = sandboxPrivateRoot();
  for (const name of readdirSync(root)) {
    const pid = Number.parseInt(/^(\d+)-/.exec(name)?.[1] ?? '', 10);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))
      rmSync(join(root, name), { recursive: true, force: true });
  }
  const directory = mkdtempSync(join(root, `${process.pid}-`));
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  processDirectory = directory;
  return processDirectory;
}

/**
 * Where a sandbox mounting `mounted` (host paths, each at the same path inside) would show the root: there it is
 * hidden behind an empty read-only tmpfs, after every mount of the policy. By path (a mount of the root or of a
 * directory above it), and by identity (device and inode): a mount that is the root or a directory above it under
 * another path (a bind mount of /tmp at /mnt/tmp, a second mount of its filesystem) shows it at the matching path
 * below it, which a path comparison misses. A mount below a mounted path counts as mounted (bubblewrap carries it),
 * so a bind of the temporary directory inside the workspace is hidden at its path too. Elsewhere there is nothing to
 * hide.
 */
export function privateRootHiddenIn(mounted: readonly string[]): string[] {
  const path = sandboxPrivateRoot();
  const table = currentMountTable(selfAndAncestors(path));
  const shownThrough = (mount: string): string | undefined =>
    isPathUnder(path, mount) ? path : whereShownThrough(path, mount);
  const hidden = new Set<string>();
  const add = (shown: string | undefined) => {
    if (shown !== undefined) hidden.add(shown);
  };
  for (const mount of mounted) add(shownThrough(mount));
  // A mount below a mounted path is mounted with it (`mountPointsBelow`): it shows the root as a mount of its own would.
  for (const mount of mountPointsBelow(mounted, table.mountinfo))
    add(table.remember('shows-private-root', mount, () => shownThrough(mount)));
  return [...hidden];
}

/**
 * Refuses a policy that would reach the private files around their hiding: a path inside the root (its mount would
 * show what the root's tmpfs hides), and a writable path (or workspace) that holds the directory the root lies in:
 * a command could rename that directory (only the root itself is a mount point inside) and put one of its own at
 * its name, which the host would then use for the next sandbox's proxy socket. `/tmp` itself may be writable;
 * `/` may not. Both by path and by identity (device and inode), so that another path to the same directory (a bind
 * mount) is refused as its own path is.
 */
export function checkPolicyAroundPrivateRoot(paths: {
  writable: readonly string[];
  readable: readonly string[];
}): void {
  const root = sandboxPrivateRoot();
  const table = currentMountTable(selfAndAncestors(root));
  // The mounts below each path are mounted with it, and as it is (writable or not): checked as paths of their own.
  const writable = withMountsBelow(paths.writable, table);
  const readable = withMountsBelow(paths.readable, table);
  const inside = [...writable, ...readable].find((checked) =>
    checked.remember('inside-private-root', () => {
      const { path } = checked;
      return path !== root && (isPathUnder(path, root) || (liesInside(path, root) && !isSameDirectory(path, [root])));
    }),
  );
  if (inside !== undefined)
    throw new InvalidSandboxPolicyError(
      `The path ${describeMount(inside)} lies inside ${root}, where the sandbox keeps its private files, which no sandbox may see`,
    );
  const parent = dirname(root);
  const above = selfAndAncestors(parent).slice(1);
  const holder = writable.find((checked) =>
    checked.remember('holds-private-parent', () => {
      const { path } = checked;
      return path !== parent && (isPathUnder(parent, path) || isSameDirectory(path, above));
    }),
  );
  if (holder !== undefined)
    throw new InvalidSandboxPolicyError(
      `The writable path ${describeMount(holder)} holds ${parent}, where the sandbox keeps its private files (${root}): ` +
        'a command could rename it and have the next sandbox use files of its own. Make a narrower path writable, ' +
        'or set TMPDIR to a directory outside it.',
    );
}

/**
 * A policy path, or a mount below one (`below`: that path), as a check found it. `remember`: a check's result, kept
 * for the next command where the path is a mount point (see `currentMountTable`), computed afresh for a policy path.
 */
interface CheckedPath {
  path: string;
  below?: string;
  remember(check: string, compute: () => boolean): boolean;
}

function withMountsBelow(paths: readonly string[], table: MountTableView): CheckedPath[] {
  return [
    ...paths.map((path) => ({ path, remember: (_check: string, compute: () => boolean) => compute() })),
    ...mountPointsBelow(paths, table.mountinfo).map((path) => ({
      path,
      below: paths.find((top) => isPathUnder(path, top)),
      remember: (check: string, compute: () => boolean) => table.remember(check, path, compute),
    })),
  ];
}

function describeMount({ path, below }: CheckedPath): string {
  return below === undefined ? path : `${path} (a mount below the policy's ${below}, which the sandbox mounts with it)`;
}
