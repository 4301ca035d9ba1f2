import { ServerError } from '../errors.js';

/**
 * The server's workspace root has been deleted while the server runs: the shell routes refuse (409) rather than make
 * an empty root again, as the git routes do (`GitWorkspaceGoneError`). Conversations' working directories were in it.
 */
export class WorkspaceGoneError extends ServerError {
  declare readonly code: 'workspace_gone';
  readonly statusCode = 409;
  readonly workspaceRoot: string;

  constructor(workspaceRoot: string) {
    super('workspace_gone', `The server's workspace root ${workspaceRoot} has been deleted`);
    this.workspaceRoot = workspaceRoot;
  }
}
