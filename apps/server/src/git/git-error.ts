import { ServerError } from '../errors.js';

/**
 * What kind of git failure: the reference's GitRepositoryError, GitCommandError and GitPathError, a refused ref, a
 * repository that reaches outside the workspace, a workspace root deleted under the server, and a failure of the
 * server's own.
 */
export type GitErrorCode =
  | 'git_repository'
  | 'git_command'
  | 'git_path'
  | 'git_ref'
  | 'git_outside_workspace'
  | 'git_workspace_gone'
  | 'git_internal';

/**
 * Base of the git routes' errors. A route answers 400 for every one of them (as the reference does for its
 * `GitError`s), except `GitRepositoryError`, which it turns into an empty answer, `GitOutsideWorkspaceError` (403) and
 * `GitInternalError` (500, a failure of the server's own).
 */
export class GitError extends ServerError {
  declare readonly code: GitErrorCode;
  readonly statusCode: number = 400;

  constructor(code: GitErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
