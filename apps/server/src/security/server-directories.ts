import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerDirectoriesOptions {
  /** The server's data directory (its local store is `<dataDir>/conversations`). */
  dataDir: string;
  /** The environment `X_HOME` is read from (the process's by default). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The user's home directory (`os.homedir()` by default). */
  home?: string;
}

/** Where the server's code is installed: the package's root (`src/security/` or `dist/security/` is two below it). */
const INSTALL_DIR = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/**
 * The server's own directories, which no error text shown to a client may name (security/hide-server-paths.ts): the
 * data directory and its store, x's home (`$X_HOME`, else `~/.x`), the user's home directory and the directory the
 * server's code is installed in, each as given, resolved and with its symlinks followed (a Node error names the real
 * path). The workspace inside the data directory stays readable: `hideServerPaths` keeps a path in the workspace.
 */
export async function serverDirectories(options: ServerDirectoriesOptions): Promise<string[]> {
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  const xHome = env.X_HOME === undefined || env.X_HOME === '' ? join(home, '.x') : env.X_HOME;
  const named = [options.dataDir, join(options.dataDir, 'conversations'), xHome, home, INSTALL_DIR];
  const found = new Set<string>();
  for (const directory of named) {
    if (directory === '') continue;
    const absolute = resolve(directory);
    if (isAbsolute(directory)) found.add(directory);
    found.add(absolute);
    const real = await realpath(absolute).catch(() => undefined);
    if (real !== undefined) found.add(real);
  }
  return [...found].filter((directory) => directory !== '/');
}
