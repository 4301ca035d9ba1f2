import { access } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isPathInside, resolveRealLocation } from '../paths/confine-to-roots.js';
import { systemDirectories } from '../sandbox/internal/host-layout.js';
import { respelledByMountSource } from '../sandbox/internal/mount-source.js';
import { readMountInfo } from '../sandbox/internal/mount-table-read.js';
import { mountPointsBelow } from '../sandbox/internal/mounts-below.js';
import { liesInside, respelledUnder } from '../sandbox/internal/same-directory.js';
import { InvalidSandboxPolicyError } from '../sandbox/invalid-sandbox-policy-error.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';

/**
 * Where a path really lands once its symlinks are followed (as written where it cannot be resolved). The path goes to
 * `realpath` as spelled: `..` after a symlink is the parent of the link's target, as the sandbox resolves it when it
 * mounts the path (`link/..`, with `link` leading to `~/.x`, is the home directory holding the store), not the
 * directory holding the link, as a lexical normalisation would make it.
 */
async function real(path: string): Promise<string> {
  const absolute = isAbsolute(path) ? path : `${process.cwd()}/${path}`;
  return (await resolveRealLocation(absolute).catch(() => undefined)) ?? resolve(absolute);
}

/**
 * Whether `mounted`, inside the store, lies in one of its conversations' directories (`conversationDirectory`, this
 * conversation's, or any holding a base_state.json): a directory beside them (a fork's workspace under the store's
 * root) holds nothing the store reads.
 */
async function insideAConversation(store: string, mounted: string, conversationDirectory: string): Promise<boolean> {
  if (!isPathInside(store, mounted) || mounted === store) return false;
  const top = join(store, relative(store, mounted).split(sep)[0] ?? '');
  if (top === join(store, conversationDirectory)) return true;
  return access(join(top, 'base_state.json')).then(
    () => true,
    () => false,
  );
}

/**
 * Refuses a sandbox whose mounts (the workspace, `writablePaths`, `readablePaths`) hold the conversation store on this
 * machine, or lie inside one of its conversations (`InvalidSandboxPolicyError`, naming both), by path or through
 * another path to the same directory (a bind mount, of the store or of any directory inside it), a mount below one of
 * them included (mounted with it). Writable, a command could rewrite any conversation's files there: its events, and
 * the sandbox policy record a resumed conversation runs under (`x_sandbox_policy.json`: `mode: 'unsandboxed'` would
 * run its next commands on the host); readable, it could read every conversation's events, and whatever secrets they
 * hold. `x run` in the home directory, whose `~/.x/conversations` holds the store, is the case in point. A store that
 * is not a directory of this machine (S3, memory), and a policy that opts out of the sandbox, have nothing to refuse.
 */
export async function assertStoreOutsideSandbox(options: {
  policy: SandboxPolicy;
  workspace: string;
  /** `store.describe('')`: the store's directory, or another kind of location. */
  storeRoot: string;
  /** This conversation's directory in the store (`conversationDirName`). */
  conversationDirectory: string;
}): Promise<void> {
  if (options.policy.mode === 'unsandboxed' || !isAbsolute(options.storeRoot)) return;
  const store = await real(options.storeRoot);
  const mounts = [
    { what: 'workspace', path: options.workspace },
    ...options.policy.writablePaths.map((path) => ({ what: 'writable path', path })),
    ...options.policy.readablePaths.map((path) => ({ what: 'readable path', path })),
    // Mounted read-only in every sandbox, whatever the policy: a store kept under /usr (an app in /usr/src/app with
    // its data beside it) would be every command's to read.
    ...systemDirectories().map((path) => ({ what: 'system directory', path })),
  ];
  const checked: { shown: string; path: string; readable: boolean }[] = [];
  const mountinfo = readMountInfo();
  for (const mount of mounts) {
    const path = await real(mount.path);
    const readable = mount.what !== 'workspace' && mount.what !== 'writable path';
    checked.push({ shown: `${mount.what} ${mount.path}`, path, readable });
    // Mounted with it (bubblewrap binds every mount below a path): a bind of the store inside the workspace.
    for (const below of mountPointsBelow([path], mountinfo))
      checked.push({ shown: `mount ${below} (below its ${mount.what} ${mount.path})`, path: below, readable });
  }
  for (const mount of checked) {
    const mounted = mount.path;
    // By identity too (device and inode): a bind mount of the store, or of a directory above it, is another path to it.
    // By the mount's source too: a bind mount of one conversation's directory is a path into the store whose
    // ancestors are none of the store's.
    const inStore = respelledUnder(mounted, store) ?? respelledByMountSource(mounted, store, mountinfo) ?? mounted;
    const how =
      isPathInside(mounted, store) || liesInside(store, mounted)
        ? 'holds'
        : (await insideAConversation(store, inStore, options.conversationDirectory))
          ? 'lies inside a conversation of'
          : undefined;
    if (how === undefined) continue;
    throw new InvalidSandboxPolicyError(
      `The sandbox's ${mount.shown} ${how} the conversation store ${options.storeRoot}: a sandboxed ` +
        (mount.readable
          ? "command could read the conversations' events and the secrets in them. "
          : "command could rewrite the conversations' events and the sandbox policy they resume under. ") +
        'Work in a directory that does not hold the store, or keep the store elsewhere (persistenceDir, X_HOME).',
    );
  }
}
