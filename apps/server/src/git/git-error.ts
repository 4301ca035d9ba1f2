import { ServerError } from '../errors.js';

/** What kind of git failure: the reference's GitRepositoryError, GitCommandError and GitPathError, and a refused ref. */
export type GitErrorCode = 'git_repository' | 'git_command' | 'git_path' | 'git_ref';

/**
 * Base of the git routes' errors. A route answers 400 for every one of them (as the reference does for its
 * `GitError`s), except `GitRepositoryError`, which it turns into an empty answer.
 */
export class GitError extends ServerError {
  declare readonly code: GitErrorCode;
  readonly statusCode: number = 400;

  constructor(code: GitErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
