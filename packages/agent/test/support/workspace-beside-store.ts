import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A workspace in `root` that does not hold a conversation store kept elsewhere in `root`: a sandboxed conversation
 * refuses a workspace that holds its store (or lies inside one of its conversations), so tests that keep both in one
 * temporary directory put the workspace in a subdirectory of its own.
 */
export async function workspaceIn(root: string): Promise<string> {
  const workspace = join(root, 'workspace');
  await mkdir(workspace, { recursive: true });
  return workspace;
}
