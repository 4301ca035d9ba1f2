import { realpath } from 'node:fs/promises';

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
