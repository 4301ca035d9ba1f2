import { GitError } from './git-error.js';

/**
 * A git route failed for a reason of the server's own (a snapshot it could not write, a file system error): a 500
 * whose message the route composes from the failure's, with the server's paths outside the workspace hidden. The
 * failure itself is the `cause` (the server's log shows it whole).
 */
export class GitInternalError extends GitError {
  override readonly statusCode: number = 500;

  constructor(message: string, options: { cause: unknown }) {
    super('git_internal', `Git route failed: ${message}`, options);
  }
}
