import { AgentError } from '../errors.js';

/**
 * What is wrong with a workspace path, for callers that answer differently per kind (the server's file routes map
 * them to HTTP statuses): `invalid` (empty, a NUL byte, not absolute where it must be), `outside` (leaves the
 * workspace, lexically or through a symlink), `link` (a symbolic link where none is followed), `hard_link` (a file
 * with more than one name: its other name may lie outside), `not_regular` (a FIFO, socket or device), `directory`,
 * `missing`, `exists` and `too_large`.
 */
export type WorkspacePathProblem =
  | 'invalid'
  | 'outside'
  | 'link'
  | 'hard_link'
  | 'not_regular'
  | 'directory'
  | 'missing'
  | 'exists'
  | 'too_large'
  | 'not_utf8';

/**
 * A workspace path that cannot be used safely: outside the workspace, through a link leading out, not a regular
 * file (a FIFO, a device, ...), a file with several hard links, too large. The file editor reports it to the model
 * as an error observation; the server answers it with a 4xx.
 */
export class WorkspacePathError extends AgentError {
  /** The path as it was given. */
  readonly path: string;
  readonly problem: WorkspacePathProblem;

  constructor(path: string, reason: string, options?: { cause?: unknown; problem?: WorkspacePathProblem }) {
    super('workspace_path', `Invalid path '${path}': ${reason}.`, options);
    this.path = path;
    this.problem = options?.problem ?? 'outside';
  }
}
