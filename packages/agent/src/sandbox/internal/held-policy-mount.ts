import { accessSync, closeSync, constants, fstatSync, openSync, readlinkSync, statSync } from 'node:fs';
import { SandboxCommandError } from '../sandbox-command-error.js';

/**
 * open(2)'s O_PATH (Linux; not among Node's `fs.constants`): a descriptor that names the inode without opening it.
 * Opening it needs search permission on the directories on the way only, reads nothing, and never waits: a FIFO is
 * not opened (an open for reading would wait for a writer), a device not touched.
 */
const O_PATH = 0o10000000;

/** What a policy path is expected to be: what it was when the sandbox was made (a directory or a regular file). */
export type MountKind = 'directory' | 'file';

/**
 * A policy path as the server found it just before a command: `held`, a descriptor of this process (O_PATH) on what
 * is at the path, checked to be there and of the expected kind, which the launcher reopens through
 * `/proc/<pid>/fd/<held>` (the same inode, whatever has happened to the name since: it cannot have become a FIFO, so
 * the launcher's open never waits); or `refused`, why nothing may be started (the launcher exits 125, naming it).
 */
export type HeldPolicyMount = { path: string; held: number } | { path: string; refused: string };

/** The kind of what is at `path` now (symlinks followed), or undefined for anything else or nothing. */
export function mountKindAt(path: string): MountKind | undefined {
  try {
    const info = statSync(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

function kindName(info: ReturnType<typeof fstatSync>): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFile()) return 'a regular file';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  // What is left, symlinks being followed: a character or block device.
  return 'a device';
}

const MOVED = 'is gone, or is not where the sandbox found it (a symlink or a rename put in its place)';

/**
 * Opens `path` (O_PATH) and checks it. `expected`: the kind it had when the sandbox was made (either, where it was
 * neither then). Throws `SandboxCommandError` where the server itself may not read it: the launcher (a shell) can
 * open it for reading only, and a directory the server may enter but not list (mode 0711) would otherwise fail as a
 * confusing "is gone".
 */
export function holdPolicyMount(path: string, expected: MountKind | undefined): HeldPolicyMount {
  let held: number;
  try {
    held = openSync(path, O_PATH);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EACCES')
      throw new SandboxCommandError(
        `The sandbox cannot mount ${path}: the server (uid ${process.getuid?.()}) lacks search (x) permission on a directory on its way`,
      );
    return { path, refused: MOVED };
  }
  const refuse = (why: string): HeldPolicyMount => {
    closeSync(held);
    return { path, refused: why };
  };
  // By the kernel's own name for what was opened: a symlink anywhere on the way, or a rename, shows here.
  let real: string | undefined;
  try {
    real = readlinkSync(`/proc/self/fd/${held}`);
  } catch {
    real = undefined;
  }
  if (real !== path) return refuse(MOVED);
  const info = fstatSync(held);
  const kind: MountKind | undefined = info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined;
  if (kind === undefined || (expected !== undefined && kind !== expected))
    return refuse(
      `is ${kindName(info)} now, not the ${expected === 'file' ? 'regular file' : expected === 'directory' ? 'directory' : 'directory or regular file'} the sandbox found there`,
    );
  try {
    accessSync(`/proc/self/fd/${held}`, constants.R_OK);
  } catch {
    closeSync(held);
    throw new SandboxCommandError(
      `The sandbox cannot mount ${path}: the server (uid ${process.getuid?.()}) may not read it (a ${kind} needs read (r) permission as well as search (x): the launcher opens each mounted path for reading to hand it to bubblewrap)`,
    );
  }
  return { path, held };
}

/** Holds every path of `mounts`, in order; on a throw, closes those already held. */
export function holdPolicyMounts(
  mounts: readonly { path: string; expected: MountKind | undefined }[],
): HeldPolicyMount[] {
  const held: HeldPolicyMount[] = [];
  try {
    for (const { path, expected } of mounts) held.push(holdPolicyMount(path, expected));
    return held;
  } catch (error) {
    releasePolicyMounts(held);
    throw error;
  }
}

/** Closes the descriptors `holdPolicyMounts` kept open (once the command they were for has exited). */
export function releasePolicyMounts(mounts: readonly HeldPolicyMount[]): void {
  for (const mount of mounts) if ('held' in mount) closeSync(mount.held);
}
