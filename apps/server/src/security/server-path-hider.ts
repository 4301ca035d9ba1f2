import { realpath } from 'node:fs/promises';
import { hideServerPaths } from './hide-server-paths.js';
import { serverDirectories } from './server-directories.js';

/**
 * `hideServerPaths` knowing the server's directories (server-directories.ts) and its workspace root (kept, as given
 * and with its symlinks followed), both looked up once, at the first text: for the faces, whose error texts come from
 * thrown errors as the 500's `exception` does.
 */
export function serverPathHider(options: {
  dataDir: string;
  workspaceRoot: string;
}): (text: string) => Promise<string> {
  let known: Promise<{ directories: string[]; workspaceRoots: string[] }> | undefined;
  return async (text) => {
    known ??= Promise.all([
      serverDirectories({ dataDir: options.dataDir }),
      realpath(options.workspaceRoot).then(
        (real) => [options.workspaceRoot, real],
        () => [options.workspaceRoot],
      ),
    ]).then(([directories, workspaceRoots]) => ({ directories, workspaceRoots }));
    return hideServerPaths(text, await known);
  };
}
