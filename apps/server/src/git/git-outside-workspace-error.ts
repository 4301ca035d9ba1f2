import { GitError } from './git-error.js';

/**
 * The repository's git directory or work tree lies outside the workspace root (a `core.worktree`, an include that
 * sets one, a `.git` file naming a git directory elsewhere): refused as a path outside the workspace is (403).
 */
export class GitOutsideWorkspaceError extends GitError {
  override readonly statusCode: number = 403;

  constructor(message: string) {
    super('git_outside_workspace', message);
  }
}
