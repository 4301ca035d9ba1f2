import { isAbsolute, resolve } from 'node:path';
import { isPathInside, resolveRealLocation } from '../paths/confine-to-roots.js';
import { InvalidSandboxPolicyError } from '../sandbox/invalid-sandbox-policy-error.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';

/** Where a path really lands once its symlinks are followed (as written where it cannot be resolved). */
async function real(path: string): Promise<string> {
  const absolute = resolve(path);
  return (await resolveRealLocation(absolute).catch(() => undefined)) ?? absolute;
}

/**
 * Refuses a sandbox whose writable mounts (the workspace, `writablePaths`) hold the conversation store on this
 * machine, or lie inside it (`InvalidSandboxPolicyError`, naming both). A command could then rewrite any
 * conversation's files there: its events, and the sandbox policy record a resumed conversation runs under
 * (`x_sandbox_policy.json`: `mode: 'unsandboxed'` would run its next commands on the host). `x run` in the home
 * directory, whose `~/.x/conversations` holds the store, is the case in point. A store that is not a directory of
 * this machine (S3, memory), and a policy that opts out of the sandbox, have nothing to refuse.
 */
export async function assertStoreOutsideSandbox(options: {
  policy: SandboxPolicy;
  workspace: string;
  /** `store.describe('')`: the store's directory, or another kind of location. */
  storeRoot: string;
}): Promise<void> {
  if (options.policy.mode === 'unsandboxed' || !isAbsolute(options.storeRoot)) return;
  const store = await real(options.storeRoot);
  const mounts = [
    { what: 'workspace', path: options.workspace },
    ...options.policy.writablePaths.map((path) => ({ what: 'writable path', path })),
  ];
  for (const mount of mounts) {
    const mounted = await real(mount.path);
    const how = isPathInside(mounted, store) ? 'holds' : isPathInside(store, mounted) ? 'lies inside' : undefined;
    if (how === undefined) continue;
    throw new InvalidSandboxPolicyError(
      `The sandbox's ${mount.what} ${mount.path} ${how} the conversation store ${options.storeRoot}: a sandboxed ` +
        "command could rewrite the conversations' events and the sandbox policy they resume under. Work in a " +
        'directory that does not hold the store, or keep the store elsewhere (persistenceDir, X_HOME).',
    );
  }
}
