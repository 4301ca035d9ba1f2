import { withMountTableRead } from '../sandbox/internal/mount-table-read.js';
import type { Sandbox } from '../sandbox/sandbox.js';

/**
 * `sandbox`, with `guard` (the conversation store kept out of its mounts) run again before each command whenever the
 * host's mount table changed since the guard last passed: a bind of the store, or of one conversation's directory,
 * made below a mounted path after the sandbox opened would otherwise be mounted into every later command, because
 * bubblewrap binds a path with every mount below it at each command. A command reads `/proc/self/mountinfo` once
 * (`withMountTableRead`): this check, the guard when it runs, and the sandbox's own checks of the command (the private
 * root's) share the read; paths swapped for symlinks need no re-check, as the sandbox holds each path to where it
 * resolved when it opened. `passedWith`: the table read just before the guard passed at the open.
 */
export function guardEachCommand(
  sandbox: Sandbox,
  guard: () => Promise<void>,
  passedWith: string | undefined,
): Sandbox {
  let passed = passedWith;
  // `table` is read before the guard runs: a mount made while it runs is then checked again at the next command.
  const check = async (table: string | undefined): Promise<void> => {
    if (table !== undefined && table === passed) return;
    await guard();
    passed = table;
  };
  return Object.freeze({
    kind: sandbox.kind,
    policy: sandbox.policy,
    workspace: sandbox.workspace,
    prepare: (command) =>
      withMountTableRead(async (table) => {
        await check(table);
        return sandbox.prepare(command);
      }),
    spawn: (options) =>
      withMountTableRead(async (table) => {
        await check(table);
        return sandbox.spawn(options);
      }),
    signal: (pid, signal) => sandbox.signal(pid, signal),
    dispose: () => sandbox.dispose(),
  } satisfies Sandbox);
}
