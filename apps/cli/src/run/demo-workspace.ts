import { mkdirSync, mkdtempSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * A fresh workspace for `x run --demo`, kept (not in the system's temporary directory, where nobody would
 * clean it up) under `$X_HOME/demo-workspaces/` (default `~/.x/demo-workspaces/`), next to the conversations
 * that refer to it. `x run` prints it; delete the directory whenever you like.
 */
export function createDemoWorkspace(env: NodeJS.ProcessEnv): string {
  const home = env.X_HOME === undefined || env.X_HOME === '' ? join(homedir(), '.x') : resolve(env.X_HOME);
  const parent = join(home, 'demo-workspaces');
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, 'x-demo-'));
}
