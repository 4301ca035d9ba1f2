import { realpath } from 'node:fs/promises';
import { WorkspaceGoneError } from './workspace-gone-error.js';

/**
 * The real path of the server's workspace root, or undefined when it no longer exists (deleted while the server
 * runs; the server makes it at start-up). Any other failure (EACCES, a loop) is thrown: that is no deleted root.
 */
export async function existingWorkspaceRoot(workspaceRoot: string): Promise<string | undefined> {
  try {
    return await realpath(workspaceRoot);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Refuses with `WorkspaceGoneError` (409 `workspace_gone`) when the server's workspace root no longer exists: what
 * every route and run that would use a conversation's working directory checks first, so that none makes the root
 * again or pays for a model call whose tools can only fail.
 */
export async function assertWorkspaceRootExists(workspaceRoot: string): Promise<void> {
  if ((await existingWorkspaceRoot(workspaceRoot)) === undefined) throw new WorkspaceGoneError(workspaceRoot);
}
