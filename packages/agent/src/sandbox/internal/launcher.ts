import { accessSync, constants } from 'node:fs';

/**
 * The host-side start of every sandboxed command: a shell that closes every file descriptor past stdio, joins
 * the command's cgroups, then becomes bubblewrap. Spawned with the command's environment less its start-up
 * variables (`splitCommandEnvironment`).
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

let shell: { path: string; options: string[]; closesAll: boolean } | undefined;

/**
 * bash closes a descriptor of any number; dash (Debian's /bin/sh), only 0 to 9. `--norc`: bash reads ~/.bashrc
 * even with `-c` when its stdin is a socket (it takes it for sshd's), and Node's stdio pipes are sockets.
 */
function launcherShell(): { path: string; options: string[]; closesAll: boolean } {
  if (shell !== undefined) return shell;
  try {
    accessSync('/bin/bash', constants.X_OK);
    shell = { path: '/bin/bash', options: ['--norc', '--noprofile'], closesAll: true };
  } catch {
    shell = { path: '/bin/sh', options: [], closesAll: false };
  }
  return shell;
}

/** A shell word, single-quoted. */
function quote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
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
}): Launcher {
  const { path, options: shellOptions, closesAll } = launcherShell();
  const close = closesAll
    ? // The glob lists the shell's own descriptors (and the directory it reads, closed by then: closing it is a no-op).
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's parameter expansion, not a template
      'for __fd in /proc/self/fd/*; do __fd=${__fd##*/}; [ "$__fd" -gt 2 ] 2>/dev/null && eval "exec $__fd>&-"; done; unset __fd'
    : 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-';
  const joins = options.cgroups.map(({ file, required }) =>
    required ? `{ echo $$ > ${quote(file)} || exit 125; }` : `{ echo $$ > ${quote(file)}; } 2>/dev/null`,
  );
  const seccomp =
    options.seccompFile === undefined ? [] : [`{ exec ${SECCOMP_FD}<${quote(options.seccompFile)}; } || exit 125`];
  return {
    command: path,
    args: [
      ...shellOptions,
      '-c',
      [close, ...seccomp, ...joins, 'exec "$@"'].join('; '),
      'x-sandbox',
      options.bwrap,
      ...options.args,
    ],
  };
}
