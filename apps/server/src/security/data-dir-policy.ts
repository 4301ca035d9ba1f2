import { join, resolve } from 'node:path';
import { isPathInside, resolveRealLocation, systemDirectories } from '@x/agent';
import { DataDirExposedError } from './data-dir-exposed-error.js';
import { SystemDirectoryExposedError } from './system-directory-exposed-error.js';

/** Where a path really lands once its symlinks are followed (as written where it cannot be resolved). */
async function real(path: string): Promise<string> {
  const absolute = resolve(path);
  return (await resolveRealLocation(absolute)) ?? absolute;
}

/**
 * The server's data directory must lie outside everything the workspace routes and sandboxes reach: no sandbox may
 * see it (`resolveServerSandboxing` refuses policy paths that overlap it), and a conversation's working directory,
 * the file routes and the shell route reach every path of the workspace root. So the root may not hold the data
 * directory (`--workspace-root ~` with the default `~/.x/server`), nor lie inside its conversation store
 * (`<dataDir>/conversations`). The default root, `<dataDir>/workspaces`, lies beside the store and is fine. Compared
 * once their symlinks are followed, as the routes and the sandbox compare paths.
 */
export async function assertDataDirOutsideWorkspaces(config: {
  dataDir: string;
  workspaceRoot: string;
}): Promise<void> {
  const [dataDir, workspaceRoot] = await Promise.all([real(config.dataDir), real(config.workspaceRoot)]);
  if (isPathInside(workspaceRoot, dataDir)) {
    throw new DataDirExposedError({
      dataDir: config.dataDir,
      workspaceRoot: config.workspaceRoot,
      how: dataDir === workspaceRoot ? 'is' : 'holds',
    });
  }
  if (isPathInside(join(dataDir, 'conversations'), workspaceRoot)) {
    throw new DataDirExposedError({
      dataDir: config.dataDir,
      workspaceRoot: config.workspaceRoot,
      how: 'lies inside the conversation store of',
    });
  }
}

/**
 * A sandboxed server's data directory and workspace root must lie outside the system directories (`/usr`, `/etc`,
 * `/lib`…) that every sandbox mounts read-only, whatever its policy: a data directory there (an app in `/usr/src/app`
 * with `--data-dir ./data`) would be every command's to read, a workspace root there every other conversation's
 * workspace. Compared once their symlinks are followed; an unsandboxed server protects neither, so nothing is checked.
 */
export async function assertOutsideSystemDirectories(config: {
  dataDir: string;
  workspaceRoot: string;
  unsandboxed: boolean;
}): Promise<void> {
  if (config.unsandboxed) return;
  const system = await Promise.all(systemDirectories().map(async (path) => ({ path, real: await real(path) })));
  for (const [what, given] of [
    ['data directory', config.dataDir],
    ['workspace root', config.workspaceRoot],
  ] as const) {
    const path = await real(given);
    const holder = system.find((directory) => isPathInside(directory.real, path));
    if (holder !== undefined)
      throw new SystemDirectoryExposedError({ what, path: given, systemDirectory: holder.path });
  }
}
