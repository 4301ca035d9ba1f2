import { AgentError, type WorkspacePathError as AgentWorkspacePathError, type WorkspacePathProblem } from '@x/agent';
import { ServerError } from '../errors.js';
import { clientText } from '../internal/client-text.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** The HTTP status of each reason @x/agent gives for refusing a workspace path. */
export const workspaceProblemStatus: Readonly<Record<WorkspacePathProblem, number>> = {
  invalid: 400,
  outside: 403,
  link: 403,
  hard_link: 403,
  not_regular: 400,
  directory: 400,
  missing: 404,
  exists: 409,
  too_large: 413,
  not_utf8: 422,
};

/** errno codes a client's path can cause, and what they mean for it. */
const errnoStatus: Readonly<Record<string, { status: number; reason: string }>> = {
  ENAMETOOLONG: { status: 400, reason: 'a component of the path is too long' },
  ENOTDIR: { status: 400, reason: 'a component of the path is not a directory' },
  ENOENT: { status: 404, reason: 'no such file or directory' },
  EISDIR: { status: 400, reason: 'it is a directory' },
  ELOOP: { status: 403, reason: 'it goes through a symbolic link' },
  EACCES: { status: 403, reason: 'permission denied' },
  EPERM: { status: 403, reason: 'operation not permitted' },
  EROFS: { status: 403, reason: 'the file system is read-only' },
  ENOSPC: { status: 507, reason: 'no space left on the device' },
  EDQUOT: { status: 507, reason: 'disk quota exceeded' },
};

/**
 * What a file route answers for a failure on a client's path: the server's own errors as they are, @x/agent's
 * refusal with the status of its reason, an errno the path caused with its status; anything else is rethrown as an
 * internal failure.
 */
export function fileSystemFailure(error: unknown, path: string): unknown {
  if (ServerError.isInstance(error)) return error;
  if (AgentError.isInstance(error) && error.code === 'workspace_path') {
    const problem = (error as AgentWorkspacePathError).problem;
    return new WorkspacePathError(error.message, workspaceProblemStatus[problem] ?? 400);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code === undefined ? undefined : errnoStatus[code];
  if (known !== undefined)
    return new WorkspacePathError(`Invalid path '${clientText(path)}': ${known.reason}.`, known.status);
  return error;
}
