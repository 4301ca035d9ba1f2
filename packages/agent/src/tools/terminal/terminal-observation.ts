/** The reference's `CmdOutputMetadata`: what its PS1 prompt reports after a command. */
export interface CommandMetadata {
  exit_code: number;
  pid: number;
  username?: string;
  hostname?: string;
  working_dir?: string;
  py_interpreter_path?: string;
  prefix: string;
  suffix: string;
}

/** The fields of a `TerminalObservation` after `content`/`is_error`, in the reference's order. */
export interface TerminalObservationFields {
  command: string;
  /** -1 while the command is still running (soft timeout); absent for errors before any command ran. */
  exit_code?: number;
  timeout: boolean;
  metadata: CommandMetadata;
}

export function defaultMetadata(): CommandMetadata {
  return { exit_code: -1, pid: -1, prefix: '', suffix: '' };
}
