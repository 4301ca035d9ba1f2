import { ClientError } from '../errors.js';

/**
 * The server refused a workspace path (HTTP 403): it lies outside the server's workspaces, through a symlink or
 * not, or the git directory or work tree of its repository does. Another path may succeed; retrying this one won't.
 */
export class RemoteWorkspacePathError extends ClientError {
  /** The path as the call was given it. */
  readonly path: string;
  readonly url: string;
  /** The server's `detail`. */
  readonly detail: string;

  constructor(init: { path: string; url: string; detail: string }) {
    super('remote_workspace_path_refused', `The agent server refused the workspace path ${init.path}: ${init.detail}`);
    this.path = init.path;
    this.url = init.url;
    this.detail = init.detail;
  }
}
