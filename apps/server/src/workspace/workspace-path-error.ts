import { ServerError } from '../errors.js';

/** A workspace route's path is relative (400), outside the workspaces (403), missing (404) or not a file (400). */
export class WorkspacePathError extends ServerError {
  readonly statusCode: number;

  constructor(message: string, statusCode: number) {
    super('workspace_path', message);
    this.statusCode = statusCode;
  }
}
