import { AgentError } from '../errors.js';

/**
 * A file-editor path that cannot be used safely: outside the workspace, through a link leading out, or not a
 * regular file (a FIFO, a device, ...). The editor reports it to the model as an error observation.
 */
export class WorkspacePathError extends AgentError {
  /** The path as the model gave it. */
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super('workspace_path', `Invalid path '${path}': ${reason}.`, options);
    this.path = path;
  }
}
