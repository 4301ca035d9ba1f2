/** Which limit ended a one-shot command. */
export type SandboxLimitKind = 'wall_time' | 'cpu_time' | 'memory' | 'file_size' | 'processes' | 'output';

/** What a one-shot sandboxed command did. */
export interface SandboxRunResult {
  /** Its exit code; a process killed by a signal reports 128 + the signal's number, as a shell does. */
  exitCode: number | null;
  /** The signal that ended the sandbox from outside (the wall-time or output kill), else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Output past `outputBytes` was dropped. */
  truncated: boolean;
  /** The limit that stopped it, when one did. */
  limit?: SandboxLimitKind;
}
