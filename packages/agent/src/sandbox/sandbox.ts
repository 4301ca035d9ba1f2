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
  dispose(): Promise<void>;
}
