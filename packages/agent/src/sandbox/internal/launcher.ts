import { accessSync, constants } from 'node:fs';

/**
 * The host-side start of every sandboxed command: a shell that closes every file descriptor past stdio (or starts
 * nothing, where it cannot), joins the command's cgroups, then becomes bubblewrap. Spawned with the command's
 * environment less its start-up variables (`splitCommandEnvironment`).
 *
 * The descriptors: bubblewrap passes on every descriptor it is given, and a process inherits every one of its
 * parent's that is not close-on-exec. Node opens its own close-on-exec, but not those it inherited itself: a
 * supervisor's pipe, a socket-activated listener (`LISTEN_FDS`), a file a wrapper script opened with `3<`. Open
 * inside the sandbox, any of them reaches outside it (a pipe to write into, a socket to accept on, a file to
 * read whatever the mounts hide).
 */
export interface Launcher {
  command: string;
  args: string[];
}

/** The descriptor the launcher opens the seccomp filter on, after closing every inherited one past stdio. */
export const SECCOMP_FD = 3;
/** The first descriptor the launcher opens a policy mount on (`buildLauncher`'s `mounts`), the others after it. */
export const FIRST_MOUNT_FD = SECCOMP_FD + 1;

/**
 * Closes every descriptor past stdio, in any POSIX shell. bash, busybox's ash and mksh close one of any number;
 * dash (Debian's /bin/sh) reads only 0 to 9 in a redirection (`10>&-` is the word `10` and a redirection of
 * stdout). Which one this is, is found without running anything: `echo x 10>/dev/null` prints `x` where `10>` is a
 * redirection, and nothing where it is a word. A shell that cannot close an open descriptor past 9 starts nothing:
 * exit 125, naming it (fail closed; bash, installed almost everywhere bubblewrap is, is the launcher wherever it
 * is found). The glob lists the shell's own descriptors, and the directory it read (closed by then: closing it is a
 * no-op, and `-L` finds it gone).
 */
const CLOSE_INHERITED = [
  '[ "$(echo x 10>/dev/null)" = x ] && __many=1 || __many=',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's parameter expansion, not a template
  'for __fd in /proc/self/fd/*; do __fd=${__fd##*/}; [ "$__fd" -gt 2 ] 2>/dev/null || continue',
  'if [ "$__fd" -le 9 ] || [ -n "$__many" ]; then eval "exec $__fd>&-"',
  'elif [ -L "/proc/self/fd/$__fd" ]; then echo "x-sandbox: the launcher shell cannot close the inherited descriptor $__fd (it closes 0 to 9 only); nothing was started" >&2; exit 125',
  'fi; done; unset __fd',
].join('; ');

let found: string | undefined;

/** bash where there is one, else /bin/sh. */
function defaultShell(): string {
  if (found !== undefined) return found;
  try {
    accessSync('/bin/bash', constants.X_OK);
    found = '/bin/bash';
  } catch {
    found = '/bin/sh';
  }
  return found;
}

/**
 * `--norc`: bash reads ~/.bashrc even with `-c` when its stdin is a socket (it takes it for sshd's), and Node's
 * stdio pipes are sockets.
 */
function shellOptions(shell: string): string[] {
  return /(^|\/)bash$/.test(shell) ? ['--norc', '--noprofile'] : [];
}

/** A shell word, single-quoted. */
function quote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/** A policy mount for the launcher: where to reopen it from (`HeldPolicyMount`), or why nothing may start. */
export type LauncherMount = { descriptor: number; path: string } & ({ source: string } | { refused: string });

function refusal(path: string, why: string): string {
  return `{ echo ${quote(`x-sandbox: the mounted path ${path} ${why}; nothing was started`)} >&2; exit 125; }`;
}

/**
 * Opens the policy mount `path` on `descriptor` for bubblewrap (`--bind-fd`) from `source`, the server's own
 * descriptor on it (`/proc/<pid>/fd/<n>`: the inode the server checked, which a rename of the name cannot change, nor
 * make a FIFO that an open would wait on), and checks that what it opened is still at `path` (a real path: no
 * symlink on the way) by the kernel's own name for it, so that a symlink or a rename put there since the server
 * checked it is refused: nothing is started (exit 125, naming the path). `command exec`: a failed redirection of
 * `exec` alone would end dash at once, before it could say why. `command -p`: `readlink` from the system's own PATH,
 * not the command's. Past 9, a shell that cannot open one (dash) starts nothing either.
 */
function openMount(mount: LauncherMount): string {
  const { descriptor, path } = mount;
  if ('refused' in mount) return refusal(path, mount.refused);
  const open = `{ command exec ${descriptor}<${quote(mount.source)} && [ "$(command -p readlink /proc/self/fd/${descriptor})" = ${quote(path)} ]; } 2>/dev/null || ${refusal(path, 'is gone, or is not where the sandbox found it (a symlink or a rename put in its place)')}`;
  return descriptor <= 9
    ? open
    : `[ -n "$__many" ] || ${refusal(path, `needs descriptor ${descriptor}, which the launcher shell cannot open (it opens 0 to 9 only)`)}; ${open}`;
}

/**
 * The launcher for `bwrap` with `args`. `cgroups`: the `cgroup.procs` files to join; a `required` one (it
 * enforces a limit) must be joined, else the launcher exits 125 before starting anything.
 */
export function buildLauncher(options: {
  bwrap: string;
  args: readonly string[];
  cgroups: readonly { file: string; required: boolean }[];
  /** The seccomp filter's file, opened as descriptor `SECCOMP_FD` for bubblewrap (`--seccomp`); must open. */
  seccompFile?: string;
  /**
   * The policy's mounts, each opened on its descriptor (`FIRST_MOUNT_FD` up) for `--bind-fd` from its `source` and
   * checked to be at its path (see `policyMounts`); must open. One `refused` starts nothing (exit 125, naming it).
   */
  mounts?: readonly LauncherMount[];
  /** The shell that runs the launcher: bash where there is one, else /bin/sh (another only in the tests). */
  shell?: string;
}): Launcher {
  const path = options.shell ?? defaultShell();
  const joins = options.cgroups.map(({ file, required }) =>
    required ? `{ echo $$ > ${quote(file)} || exit 125; }` : `{ echo $$ > ${quote(file)}; } 2>/dev/null`,
  );
  const seccomp =
    options.seccompFile === undefined ? [] : [`{ exec ${SECCOMP_FD}<${quote(options.seccompFile)}; } || exit 125`];
  return {
    command: path,
    args: [
      ...shellOptions(path),
      '-c',
      [
        CLOSE_INHERITED,
        ...seccomp,
        ...(options.mounts ?? []).map(openMount),
        'unset __many',
        ...joins,
        'exec "$@"',
      ].join('; '),
      'x-sandbox',
      options.bwrap,
      ...options.args,
    ],
  };
}
