import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where conversations live: `--data-dir`, else `$X_HOME/conversations`, else `~/.x/conversations`. The
 * same rule as `defaultPersistenceDir()` of @x/agent (a test checks they agree); repeated here so the
 * read-only commands start without loading the agent package.
 */
export function resolveDataDir(dataDir: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (dataDir !== undefined) return resolve(expandHome(dataDir));
  return join(
    env.X_HOME === undefined || env.X_HOME === '' ? join(homedir(), '.x') : resolve(env.X_HOME),
    'conversations',
  );
}

export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}
