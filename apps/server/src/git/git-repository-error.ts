import { GitError } from './git-error.js';

/** The path is not in a git repository (the routes answer an empty list, diff or page). */
export class GitRepositoryError extends GitError {
  constructor(message: string) {
    super('git_repository', message);
  }
}
