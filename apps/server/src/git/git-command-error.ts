import { GitError } from './git-error.js';

/** A git command failed, ran past its time, printed more than its cap, or printed what cannot be parsed. */
export class GitCommandError extends GitError {
  /** The git arguments (after the hardening options). */
  readonly args: readonly string[];
  /** Its exit code; -1 when it was killed (time or output limit) or could not start. */
  readonly exitCode: number;
  readonly stderr: string;

  constructor(message: string, details: { args: readonly string[]; exitCode: number; stderr: string }) {
    super('git_command', message);
    this.args = details.args;
    this.exitCode = details.exitCode;
    this.stderr = details.stderr;
  }
}

/** The failure of `git <args>` for `why` (its stderr, or the limit it hit), as the git routes report it. */
export function gitCommandFailure(args: readonly string[], exitCode: number, why: string): GitCommandError {
  return new GitCommandError(`Git command failed: git ${args.join(' ')}: ${why}`, { args, exitCode, stderr: why });
}
