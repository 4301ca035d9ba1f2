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
  /**
   * Files mounted read-only for the runtime: the host's `node` binary (which runs the allowlist's bridge) where it is
   * outside the system directories. Only the file: its directory may hold anything (a `node` in the home directory).
   */
  runtimeFiles: readonly string[];
  /**
   * Files that must not be readable: under the system directories (/etc/shadow…), and the machine-wide files of the
   * sandbox's own /proc (/proc/keys…). Hidden behind /dev/null, after /proc is mounted.
   */
  hiddenFiles: readonly string[];
  /** Directories under the system directories that must not be readable: hidden behind an empty tmpfs. */
  hiddenDirectories: readonly string[];
  /** A private host directory mounted read-only (the allowlist proxy's socket and bridge). */
  control?: { host: string; sandbox: string };
  /**
   * Variables set inside the sandbox only (`--setenv`), never in bubblewrap's own environment on the host: the
   * command's start-up variables (`LD_PRELOAD`…), see `splitCommandEnvironment`.
   */
  setenv?: Readonly<Record<string, string>>;
  /**
   * The size of the sandbox's /tmp and of its /dev/shm (each a tmpfs, so memory): the memory limit, where the policy
   * has one, so that a host without a memory cgroup (where RLIMIT_DATA, per process, stands in) cannot be filled
   * through them. /dev itself (bubblewrap's tmpfs, unsized) is then read-only.
   */
  tmpSizeBytes?: number;
  /**
   * The descriptor bubblewrap reads the seccomp filter from (`--seccomp`; the launcher opens it), applied to the
   * command just before it runs, after bubblewrap's own setup. See `seccompProgram`.
   */
  seccompFd?: number;
  /**
   * Where given, the policy's own mounts (`policyMounts`: the workspace, the writable and readable paths) are made
   * from descriptors the launcher opened and checked (`buildLauncher`'s `mounts`), one each from this number up, in
   * `policyMounts`' order (`--bind-fd`, `--ro-bind-fd`): a path is then mounted as it was when checked, never through
   * a symlink another sandbox put in its place since (see `policyMounts`).
   */
  firstMountDescriptor?: number;
  /** What runs inside: the argv after `--`. */
  argv: readonly string[];
}

/** One host path of the policy, mounted at the same path inside. */
export interface PolicyMount {
  path: string;
  writable: boolean;
}

/**
 * The policy's own mounts, in the order bubblewrap applies them: the readable paths, then the writable ones (so a
 * workspace inside a readable path stays writable). A path inside a writable one is not mounted again (see
 * `buildBwrapArgs`).
 *
 * Each is a host path that something else may be able to rename: a path inside another conversation's workspace (a
 * working directory, a readable path), or under a directory another sandbox may write. Mounted by its name, it would
 * be resolved by bubblewrap at each command, and a symlink put in its place (`ln -s /srv/x-data sub`) would mount
 * whatever it names, the server's data directory included, writable where the path is. So each is opened by the
 * server (`holdPolicyMount`: O_PATH, never waiting on a FIFO put in its place) and checked to be where the policy found
 * it and of the kind it had, reopened by the launcher from the server's descriptor and checked again
 * (`buildLauncher`), and mounted from that descriptor.
 */
export function policyMounts(
  options: Pick<BwrapArgsOptions, 'workspace' | 'writablePaths' | 'readablePaths'>,
): PolicyMount[] {
  const writable = outermostWritable([options.workspace, ...options.writablePaths]);
  return [
    ...options.readablePaths
      .filter((path) => !writable.some((root) => isPathUnder(path, root)))
      .map((path) => ({ path, writable: false })),
    ...writable.map((path) => ({ path, writable: true })),
  ];
}

/**
 * The bubblewrap command line for one command. Pure: every host fact it needs comes in `options`, so the
 * exact mount table is testable and documented (README, "The bwrap command line"). Mounts are applied in
 * order, later ones on top of earlier ones: system directories, the sandbox's own /tmp, then the readable and
 * writable paths (so a path under /tmp survives /tmp's tmpfs), the writable ones after them (a workspace inside a
 * readable path stays writable), then the sandbox's own /proc and /dev and the hidden files and directories, on
 * top of everything (a readable path `/proc` or `/` does not show the host's processes, nor `/etc` bring
 * `/etc/shadow` back).
 *
 * A path inside a writable one (the workspace inside a writable path, a writable or readable path inside the
 * workspace) is not mounted again: the writable mount shows it already (writable: a read-only mount under it
 * would be covered by it), and its own mount would be resolved on the host at each command through directories
 * the sandbox can rename and replace with a symlink (mounting any host directory in its place).
 */
export function buildBwrapArgs(options: BwrapArgsOptions): string[] {
  const args: string[] = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (options.network !== 'all') args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--disable-userns', '--hostname', 'sandbox');
  for (const entry of options.systemEntries) {
    if (entry.kind === 'symlink') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  if (options.tmpSizeBytes !== undefined) args.push('--size', String(options.tmpSizeBytes));
  args.push('--tmpfs', '/tmp');
  for (const file of options.runtimeFiles) args.push('--ro-bind', file, file);
  policyMounts(options).forEach(({ path, writable }, index) => {
    if (options.firstMountDescriptor === undefined) args.push(writable ? '--bind' : '--ro-bind', path, path);
    else args.push(writable ? '--bind-fd' : '--ro-bind-fd', String(options.firstMountDescriptor + index), path);
  });
  if (options.control !== undefined) args.push('--ro-bind', options.control.host, options.control.sandbox);
  // After the policy's paths: a readable `/proc` (or `/`) would otherwise show the host's processes.
  args.push('--proc', '/proc', '--dev', '/dev');
  // The sandbox's /proc/sys, writable as bubblewrap leaves it, sets the kernel's own settings (`kernel.core_pattern`
  // names a program the kernel runs as root on the host at a crash) for a server running as root: root inside is
  // the host's root, and a sysctl checks its file's mode, not capabilities. bubblewrap means to cover it read-only
  // but skips it (the directory is 0555 to `access`). The host's, read-only, shows the same values: a sysctl
  // answers for the namespaces of the process that reads it (the sandbox's network, hostname, PIDs).
  args.push('--ro-bind', '/proc/sys', '/proc/sys');
  // bubblewrap's /dev is a tmpfs of half the machine's memory, /dev/shm a directory on it: both writable, beyond any
  // per-process rlimit. A sized tmpfs of its own for /dev/shm (POSIX shared memory needs it writable), and /dev read-only.
  if (options.tmpSizeBytes !== undefined)
    args.push('--size', String(options.tmpSizeBytes), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  for (const file of options.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  for (const directory of options.hiddenDirectories) args.push('--tmpfs', directory, '--remount-ro', directory);
  for (const [name, value] of Object.entries(options.setenv ?? {})) args.push('--setenv', name, value);
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  args.push('--chdir', options.cwd, '--', ...options.argv);
  return args;
}

/** Whether `path` is `root` or lies under it (both absolute and normalised). */
export function isPathUnder(path: string, root: string): boolean {
  return root === '/' || path === root || path.startsWith(`${root}/`);
}

/** The writable mounts to make: each once, and none that lies inside another (see `buildBwrapArgs`). */
function outermostWritable(paths: readonly string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && isPathUnder(path, other)));
}
