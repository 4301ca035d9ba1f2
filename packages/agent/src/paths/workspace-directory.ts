import { realpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { confineToRoots, isPathInside } from './confine-to-roots.js';
import { checkPathText } from './workspace-entry.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** A directory inside the workspace: as the caller named it, and where it really is. */
export interface WorkspaceDirectory {
  /** Absolute, normalised, in the workspace's own terms (symlinks not followed): what results are shown under. */
  path: string;
  /** The path with every symlink followed. */
  real: string;
  /** The workspace's real path. */
  realRoot: string;
}

/**
 * Resolves a directory to search (relative to the workspace, or absolute inside it; none means the workspace
 * itself) and refuses one that lies outside, lexically (`..`, `/etc`) or through a symlink, with a
 * `WorkspacePathError`. Whether it is a directory is checked when it is opened (`openVerifiedDirectory`).
 */
export async function resolveWorkspaceDirectory(
  workspace: string,
  requested: string | null | undefined,
): Promise<WorkspaceDirectory> {
  const root = resolve(workspace);
  const realRoot = await realpath(root);
  if (requested === undefined || requested === null || requested === '') {
    return { path: root, real: realRoot, realRoot };
  }
  checkPathText(requested);
  const path = isAbsolute(requested) ? resolve(requested) : resolve(root, requested);
  if (!isPathInside(root, path) && !isPathInside(realRoot, path)) {
    throw new WorkspacePathError(requested, `it resolves to ${path}, outside the workspace ${root}`);
  }
  const confined = await confineToRoots(path, [realRoot], { shown: requested });
  if (!confined.ok) {
    if (confined.reason === 'dangling_symlink') {
      throw new WorkspacePathError(requested, 'it goes through a symlink whose target does not exist', {
        problem: 'link',
      });
    }
    throw new WorkspacePathError(
      requested,
      `it resolves to ${confined.real} through a symlink, outside the workspace ${root}`,
    );
  }
  return { path, real: confined.real, realRoot };
}
