import { GitError } from './git-error.js';

/**
 * The server's workspace root has been deleted while the server runs. A git route refuses (409) rather than making
 * an empty root again: an empty answer would pass every repository the agent had there off as gone without a word,
 * and what deleted the root (an operator, a cleaner) is not undone by the server.
 */
export class GitWorkspaceGoneError extends GitError {
  override readonly statusCode: number = 409;
  readonly workspaceRoot: string;

  constructor(workspaceRoot: string) {
    super('git_workspace_gone', `The server's workspace root ${workspaceRoot} has been deleted`);
    this.workspaceRoot = workspaceRoot;
  }
}
