import { isAbsolute, resolve } from 'node:path';
import { confineToRoots } from '@x/agent';
import { clientText } from '../internal/client-text.js';
import { fileSystemFailure } from './file-system-failure.js';
import { WorkspacePathError } from './workspace-path-error.js';

/**
 * Resolves an absolute path of a workspace route and refuses (WorkspacePathError, 403) anything outside
 * every root, lexically or through a symlink (`confineToRoots` of @x/agent, which the file editor uses too); a
 * relative path is a 400, as in the reference. The caller opens the result with O_NOFOLLOW, so a link swapped
 * in for the last component is refused at use too.
 */
export async function confinePath(requested: string, roots: readonly string[]): Promise<string> {
  if (!isAbsolute(requested)) throw new WorkspacePathError('Path must be absolute', 400);
  const confined = await confineToRoots(resolve(requested), roots, { shown: clientText(requested) }).catch(
    (error: unknown) => {
      throw fileSystemFailure(error, requested);
    },
  );
  if (confined.ok) return confined.real;
  if (confined.reason === 'dangling_symlink') {
    throw new WorkspacePathError(
      `Path '${clientText(requested)}' goes through a symlink whose target does not exist`,
      403,
    );
  }
  throw new WorkspacePathError(`Path '${clientText(requested)}' is outside the server's workspaces`, 403);
}
