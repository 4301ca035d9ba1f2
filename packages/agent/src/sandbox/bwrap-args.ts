/** A top-level system entry of the host, mounted read-only as it is (a directory) or recreated (a symlink). */
export type SystemEntry = { path: string; kind: 'directory' } | { path: string; kind: 'symlink'; target: string };

export interface BwrapArgsOptions {
  /** Mounted read-write at the same absolute path. */
  workspace: string;
  /** Where the command starts (inside a mounted path). */
  cwd: string;
  /** `all` shares the host's network namespace; anything else gets its own (only its own loopback). */
  network: 'none' | 'all' | 'allowlist';
  writablePaths: readonly string[];
  readablePaths: readonly string[];
  /** /usr, /etc, /bin, /lib… as found on the host. */
  systemEntries: readonly SystemEntry[];
  /** Directories mounted read-only for the runtime (the one holding the host's `node`). */
  runtimeDirectories: readonly string[];
  /** Files under the system directories that must not be readable (/etc/shadow…): hidden behind /dev/null. */
  hiddenFiles: readonly string[];
  /** Directories under the system directories that must not be readable: hidden behind an empty tmpfs. */
  hiddenDirectories: readonly string[];
  /** A private host directory mounted read-only (the allowlist proxy's socket and bridge). */
  control?: { host: string; sandbox: string };
  /** What runs inside: the argv after `--`. */
  argv: readonly string[];
}

/**
 * The bubblewrap command line for one command. Pure: every host fact it needs comes in `options`, so the
 * exact mount table is testable and documented (README, "The bwrap command line"). Mounts are applied in
 * order, later ones on top of earlier ones: system directories, then hidden files over them, then the
 * sandbox's own /proc, /dev and /tmp, then the readable and writable paths (so a path under /tmp survives
 * /tmp's tmpfs), the writable ones last (a workspace inside a readable path stays writable).
 */
export function buildBwrapArgs(options: BwrapArgsOptions): string[] {
  const args: string[] = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (options.network !== 'all') args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--disable-userns', '--hostname', 'sandbox');
  for (const entry of options.systemEntries) {
    if (entry.kind === 'symlink') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  for (const file of options.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  for (const directory of options.hiddenDirectories) args.push('--tmpfs', directory, '--remount-ro', directory);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const directory of options.runtimeDirectories) args.push('--ro-bind', directory, directory);
  for (const path of options.readablePaths) args.push('--ro-bind', path, path);
  args.push('--bind', options.workspace, options.workspace);
  for (const path of options.writablePaths) args.push('--bind', path, path);
  if (options.control !== undefined) args.push('--ro-bind', options.control.host, options.control.sandbox);
  args.push('--chdir', options.cwd, '--', ...options.argv);
  return args;
}
