import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SystemEntry } from '../bwrap-args.js';

/** What the sandbox mounts of the host's system, read once per sandbox. */
export interface HostLayout {
  systemEntries: SystemEntry[];
  runtimeDirectories: string[];
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

export function readHostLayout(): HostLayout {
  const systemEntries: SystemEntry[] = [];
  for (const path of SYSTEM_PATHS) {
    const kind = exists(path);
    if (kind === 'symlink') systemEntries.push({ path, kind: 'symlink', target: readlinkSync(path) });
    else if (kind === 'directory') systemEntries.push({ path, kind: 'directory' });
  }
  const hiddenFiles = HIDDEN_FILES.filter((path) => exists(path) === 'file');
  hiddenFiles.push('/etc/sudoers');
  try {
    // The host's SSH private keys (its identity on the network).
    for (const name of readdirSync('/etc/ssh'))
      if (/^ssh_host_.*_key$/.test(name)) hiddenFiles.push(join('/etc/ssh', name));
  } catch {
    // No SSH server configured.
  }
  const node = realpathSync(process.execPath);
  const mounted = systemEntries.filter((entry) => entry.kind === 'directory').map((entry) => entry.path);
  const runtimeDirectories = isUnder(node, mounted) ? [] : [dirname(node)];
  return {
    systemEntries,
    runtimeDirectories,
    hiddenFiles: hiddenFiles.filter((path) => exists(path) === 'file'),
    hiddenDirectories: HIDDEN_DIRECTORIES.filter((path) => exists(path) === 'directory'),
    node,
  };
}
