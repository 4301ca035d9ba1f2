import type { ChildProcess } from 'node:child_process';
import { killProcessTree } from '../processes/index.js';
import type { PreparedCommand, Sandbox, SandboxCommand, SandboxSpawnOptions } from './sandbox.js';
import { type SandboxPolicy, type SandboxPolicyInput, sandboxPolicySchema } from './sandbox-policy.js';

export interface UnsandboxedOptions {
  /** The policy recorded for the conversation; its `mode` is forced to `unsandboxed`. */
  policy?: SandboxPolicyInput;
  workspace: string;
  /** Where the once-per-process warning goes. Default `console.warn`. */
  warn?: (message: string) => void;
}

let warned = false;

/** The warning every process that runs tools without a sandbox prints once. */
export function unsandboxedWarning(reason: string): string {
  return `running tools WITHOUT a sandbox: ${reason}. Every command the agent runs (terminal, hooks, MCP stdio servers) has the host's authority: your files, your credentials, your network.`;
}

/** Prints the warning once per process (the first unsandboxed sandbox, or a refusal that names the opt-out). */
export function warnUnsandboxedOnce(reason: string, warn: (message: string) => void = console.warn): void {
  if (warned) return;
  warned = true;
  warn(unsandboxedWarning(reason));
}

function signalGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone.
  }
}

/**
 * The explicit opt-out (`mode: 'unsandboxed'`): commands run directly on the host with the environment they are
 * given, each the leader of its own process group, and `dispose()` kills every tree it started. Nothing confines
 * them: a daemon that double-forks and leaves its group before `dispose()` survives it. Warns loudly once per
 * process.
 */
export function createUnsandboxedSandbox(options: UnsandboxedOptions): Sandbox {
  const policy: SandboxPolicy = sandboxPolicySchema.parse({ ...options.policy, mode: 'unsandboxed' });
  warnUnsandboxedOnce('the conversation chose the unsandboxed policy', options.warn);
  /** Children by pid, and whether each has exited (its group may outlive it while a background job runs). */
  const live = new Map<number, { exited: boolean }>();
  let disposed = false;

  const kill = (pid: number, state: { exited: boolean }): void => {
    // After the leader exited its pid may be reused, but the group id cannot be while the group has members.
    if (state.exited) signalGroup(pid);
    else killProcessTree(pid);
  };

  const sandbox: Sandbox = {
    kind: 'unsandboxed',
    policy,
    workspace: options.workspace,
    async prepare(command: SandboxCommand): Promise<PreparedCommand> {
      return {
        command: command.command,
        args: [...command.args],
        cwd: command.cwd,
        env: { ...command.env },
        release: async () => undefined,
      };
    },
    async spawn(spawnOptions: SandboxSpawnOptions): Promise<ChildProcess> {
      if (disposed) throw new Error('the unsandboxed sandbox was disposed');
      // Loaded on first use (see runSandboxed); checked again after the await, as dispose may have run meanwhile.
      const { spawn } = await import('node:child_process');
      if (disposed) throw new Error('the unsandboxed sandbox was disposed');
      const child = spawn(spawnOptions.command, [...spawnOptions.args], {
        cwd: spawnOptions.cwd,
        env: { ...spawnOptions.env },
        detached: true,
        stdio: spawnOptions.stdio ?? 'pipe',
      });
      const pid = child.pid;
      if (pid !== undefined) {
        const state = { exited: false };
        live.set(pid, state);
        child.once('exit', () => {
          state.exited = true;
        });
        // Forgotten once the streams closed too: a group that outlives that is out of reach (see above).
        child.once('close', () => live.delete(pid));
      }
      return child;
    },
    signal(pid: number, signal: NodeJS.Signals): void {
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is gone.
      }
    },
    async dispose(): Promise<void> {
      disposed = true;
      for (const [pid, state] of live) kill(pid, state);
      live.clear();
    },
  };
  return Object.freeze(sandbox);
}
