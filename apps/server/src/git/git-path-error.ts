import { GitError } from './git-error.js';

/** The file of a diff is missing, not a regular file, larger than the cap, or outside its repository. */
export class GitPathError extends GitError {
  constructor(message: string) {
    super('git_path', message);
  }
}
