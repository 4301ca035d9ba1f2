import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { SystemEntry } from '../bwrap-args.js';
import { SandboxHostScanError } from '../sandbox-host-scan-error.js';

/** What the sandbox mounts of the host's system, read once per sandbox. */
export interface HostLayout {
  systemEntries: SystemEntry[];
  /**
   * Host files mounted read-only at their own path for the runtime: the host's `node` where it is not under the
   * system directories. The binary alone, never its directory, which may be any directory (`~/node`: the home).
   */
  runtimeFiles: string[];
  hiddenFiles: string[];
  hiddenDirectories: string[];
  /** The host's `node`, by its real path: runs the allowlist bridge inside the sandbox. */
  node: string;
}

/** Programs and libraries: read-only, so every tool of the image works and none can be altered. */
const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

/** Secrets that live under /etc on a stock Debian host; readable by root-in-the-sandbox unless hidden. */
const HIDDEN_FILES = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/security/opasswd'];
const HIDDEN_DIRECTORIES = ['/etc/ssl/private', '/etc/sudoers.d'];
/**
 * Files of the sandbox's own /proc that show the whole machine, not its PID namespace (Docker masks them too).
 * `keys` and `key-users` list every key of every keyring the server's user can view, of processes outside the
 * sandbox too (a Kerberos ticket cache's principal, a mount's credentials: a key's description names what it is
 * for); the rest show the kernel's timers, scheduler and memory. Hidden where the kernel has them: the sandbox's
 * procfs is the host's kernel's, so it has the same files.
 */
const HIDDEN_PROC_FILES = [
  '/proc/keys',
  '/proc/key-users',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/proc/latency_stats',
  '/proc/kcore',
];
/**
 * Entries of /etc looked at, at most: a stock /etc has one or two thousand. Past it the scan fails closed
 * (`SandboxHostScanError`): an entry it did not look at could be a private file left readable. Hiding the unscanned
 * rest wholesale instead would break the tools whose configuration happens to lie there, unpredictably.
 */
export const ETC_SCAN_LIMIT = 50_000;

/** How the host's /etc is scanned: another directory and limit only in the tests. */
export interface EtcScanOptions {
  /** The directory scanned for private entries (default `/etc`). */
  root?: string;
  /** The most entries looked at (default `ETC_SCAN_LIMIT`); one more throws `SandboxHostScanError`. */
  limit?: number;
}

/**
 * Every file under `root` that others may not read and every directory they may not enter: a file kept from
 * other users is a secret of its owner, and the sandbox runs as the server's user (root, for a root server,
 * owns root's files inside too). `/etc/default/cacerts`, a database's `pg_hba.conf`, the SSH host keys, a
 * `credstore`… whatever the host holds, not a list that knows some of them. Symlinks are left alone (their
 * target is what is mounted or not). Throws `SandboxHostScanError` past `limit` entries, never answering with a
 * part of them.
 */
export function privateEntries(
  root: string,
  limit: number = ETC_SCAN_LIMIT,
): { files: string[]; directories: string[] } {
  const files: string[] = [];
  const directories: string[] = [];
  const queue = [root];
  let seen = 0;
  for (let directory = queue.shift(); directory !== undefined; directory = queue.shift()) {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      continue;
    }
    for (const name of names) {
      seen += 1;
      if (seen > limit) throw new SandboxHostScanError(root, limit);
      const path = join(directory, name);
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if ((stat.mode & 0o005) !== 0o005) directories.push(path);
        else queue.push(path);
      } else if (stat.isFile() && (stat.mode & 0o004) === 0) files.push(path);
    }
  }
  return { files, directories };
}

/**
 * The system directories every sandbox mounts read-only, whatever its policy (a symlink among them, such as a
 * merged-/usr `/bin`, is recreated inside and leads into one of them): what lies under them is readable by every
 * sandboxed command.
 */
export function systemDirectories(): string[] {
  return SYSTEM_PATHS.filter((path) => exists(path) === 'directory');
}

function exists(path: string): 'file' | 'directory' | 'symlink' | undefined {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'symlink';
    return stat.isDirectory() ? 'directory' : 'file';
  } catch {
    return undefined;
  }
}

function isUnder(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}

export interface HostLayoutOptions {
  /** The `node` that runs the bridge (this process's own; another only in the tests). */
  execPath?: string;
  /** The scan of /etc for private entries (see `privateEntries`). */
  etcScan?: EtcScanOptions;
}

/** Throws `SandboxHostScanError` when /etc holds more entries than its scan looks at. */
export function readHostLayout(options: HostLayoutOptions = {}): HostLayout {
  const execPath = options.execPath ?? process.execPath;
  const etc = options.etcScan?.root ?? '/etc';
  const systemEntries: SystemEntry[] = [];
  for (const path of SYSTEM_PATHS) {
    const kind = exists(path);
    if (kind === 'symlink') systemEntries.push({ path, kind: 'symlink', target: readlinkSync(path) });
    else if (kind === 'directory') systemEntries.push({ path, kind: 'directory' });
  }
  const scanned =
    exists(etc) === 'directory' ? privateEntries(etc, options.etcScan?.limit) : { files: [], directories: [] };
  const hiddenFiles = [...new Set([...HIDDEN_FILES, '/etc/sudoers', ...scanned.files, ...HIDDEN_PROC_FILES])];
  try {
    // The host's SSH private keys (its identity on the network).
    for (const name of readdirSync('/etc/ssh'))
      if (/^ssh_host_.*_key$/.test(name)) hiddenFiles.push(join('/etc/ssh', name));
  } catch {
    // No SSH server configured.
  }
  const node = realpathSync(execPath);
  const mounted = systemEntries.filter((entry) => entry.kind === 'directory').map((entry) => entry.path);
  const runtimeFiles = isUnder(node, mounted) ? [] : [node];
  return {
    systemEntries,
    runtimeFiles,
    hiddenFiles: [...new Set(hiddenFiles)].filter((path) => exists(path) === 'file'),
    hiddenDirectories: [...new Set([...HIDDEN_DIRECTORIES, ...scanned.directories])].filter(
      (path) => exists(path) === 'directory',
    ),
    node,
  };
}
