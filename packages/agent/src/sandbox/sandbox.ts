import type { ChildProcess, StdioOptions } from 'node:child_process';
import type { SandboxPolicy } from './sandbox-policy.js';

/** A command to run on the agent's behalf. */
export interface SandboxCommand {
  command: string;
  args: readonly string[];
  /** The directory it starts in; must be inside the workspace or a writable/readable path of the policy. */
  cwd: string;
  /** The whole environment it gets (nothing is inherited from the host). */
  env: Readonly<Record<string, string>>;
}

/**
 * A command rewritten to run inside the sandbox, for callers that must spawn it themselves (the MCP SDK's
 * stdio transport). `env` is what to pass to `spawn` for the outer process (minimal: it is visible to the
 * sandbox). `release()` frees what was set up for it (a cgroup, a proxy bridge) once the process has exited.
 */
export interface PreparedCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  release(): Promise<void>;
  /**
   * Which of the limits enforced by the kernel's accounting were hit (a fork refused at the process limit, a
   * process killed at the memory limit); read it before `release()`. Absent where nothing is accounted.
   */
  limitsHit?(): Promise<{ processes: boolean; memory: boolean }>;
  /**
   * Kills every process of the command now, through its cgroups, besides killing its process group (which ends the
   * namespace through bubblewrap's parent-death signal). Absent where nothing is accounted.
   */
  kill?(): Promise<void>;
}

export interface SandboxSpawnOptions extends SandboxCommand {
  stdio?: StdioOptions;
}

/**
 * Runs commands under one policy, for one conversation (or one server route). Every process it starts, and
 * everything those start, dies when `dispose()` is called.
 */
export interface Sandbox {
  /** `bubblewrap` or `unsandboxed` (the explicit opt-out). */
  readonly kind: 'bubblewrap' | 'unsandboxed';
  readonly policy: SandboxPolicy;
  /** The writable root every command may use. */
  readonly workspace: string;
  prepare(command: SandboxCommand): Promise<PreparedCommand>;
  /** Spawns a prepared command; the child leads its own process group. */
  spawn(options: SandboxSpawnOptions): Promise<ChildProcess>;
  /**
   * Sends `signal` to what a spawned command runs (its pid as `spawn` or the caller's own spawn of a prepared
   * command gave it), as `process.kill(-pid, signal)` does for an unsandboxed process group. Needed because
   * the sandbox's supervisor (bubblewrap outside, which would die of a SIGINT and take the sandbox with it)
   * must not receive it, and the processes inside run in their own session.
   */
  signal(pid: number, signal: NodeJS.Signals): void;
  dispose(): Promise<void>;
}
