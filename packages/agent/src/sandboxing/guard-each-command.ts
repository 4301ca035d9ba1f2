import { readMountInfo } from '../sandbox/internal/mounts-below.js';
import type { Sandbox } from '../sandbox/sandbox.js';

/**
 * `sandbox`, with `guard` (the conversation store kept out of its mounts) run again before each command whenever the
 * host's mount table changed since the guard last passed: a bind of the store, or of one conversation's directory,
 * made below a mounted path after the sandbox opened would otherwise be mounted into every later command, because
 * bubblewrap binds a path with every mount below it at each command. An unchanged table (the usual case) costs one
 * read of `/proc/self/mountinfo`; paths swapped for symlinks need no re-check, as the sandbox holds each path to where
 * it resolved when it opened. `passedWith`: the table read just before the guard passed at the open.
 */
export function guardEachCommand(
  sandbox: Sandbox,
  guard: () => Promise<void>,
  passedWith: string | undefined,
): Sandbox {
  let passed = passedWith;
  const check = async (): Promise<void> => {
    // Read before the guard runs: a mount made while it runs is then checked again at the next command.
    const table = readMountInfo();
    if (table !== undefined && table === passed) return;
    await guard();
    passed = table;
  };
  return Object.freeze({
    kind: sandbox.kind,
    policy: sandbox.policy,
    workspace: sandbox.workspace,
    prepare: async (command) => {
      await check();
      return sandbox.prepare(command);
    },
    spawn: async (options) => {
      await check();
      return sandbox.spawn(options);
    },
    signal: (pid, signal) => sandbox.signal(pid, signal),
    dispose: () => sandbox.dispose(),
  } satisfies Sandbox);
}
