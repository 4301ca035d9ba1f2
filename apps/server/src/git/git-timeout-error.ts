import { GitCommandError } from './git-command-error.js';

/**
 * A git command ran past the runner's time limit and was killed (it and everything it started): the reference's
 * timed-out `GitCommandError` (exit code -1), a class of its own so a caller can tell it from a failure of git's.
 */
export class GitTimeoutError extends GitCommandError {
  /** The limit it ran past, in milliseconds. */
  readonly timeoutMs: number;

  constructor(args: readonly string[], timeoutMs: number) {
    const why = `it ran past its time limit of ${timeoutMs} ms and was killed`;
    super(`Git command timed out: git ${args.join(' ')}: ${why}`, { args, exitCode: -1, stderr: why });
    this.timeoutMs = timeoutMs;
  }
}
