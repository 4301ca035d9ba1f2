// Every test run gets its own empty HOME and X_HOME, so no test can read the developer's real ~/.x (hook
// configs, keys) or leave conversations in it. Tools that keep their own state under HOME (git's identity,
// npm's and pnpm's config, cache and store) are pointed back at the real places, so nested installs still
// work offline; a variable the caller already set is kept.
import { existsSync, mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** The real home directory, before any redirection (what `~` meant when the run started). */
export const realHome = process.env.X_REAL_HOME ?? homedir();

/** Creates the run's temporary home and returns the environment variables that point at it. */
export function createTestHomeEnv() {
  // A nested vitest (a test running another package's tests) keeps the home its parent made.
  if (process.env.X_TEST_HOME !== undefined && process.env.X_TEST_HOME !== '') {
    return { HOME: process.env.X_TEST_HOME, X_HOME: join(process.env.X_TEST_HOME, '.x') };
  }
  const home = mkdtempSync(join(tmpdir(), 'x-test-home-'));
  return { ...homeEnvAt(home), X_TEST_HOME: home, X_TEST_HOME_OWNER: String(process.pid) };
}

/**
 * The variables that make `home` the home directory (HOME, X_HOME) while git, npm, pnpm and pyenv keep their
 * real configuration, caches and store.
 */
export function homeEnvAt(home) {
  const env = { HOME: home, X_HOME: join(home, '.x'), X_REAL_HOME: realHome };
  const keep = (name, path) => {
    if (process.env[name] === undefined && existsSync(path)) env[name] = path;
  };
  keep('GIT_CONFIG_GLOBAL', join(realHome, '.gitconfig'));
  // Upper case: the quickstart test strips the lower-case npm_* variables pnpm sets for its children.
  keep('NPM_CONFIG_USERCONFIG', join(realHome, '.npmrc'));
  keep('NPM_CONFIG_CACHE', join(realHome, '.npm'));
  keep('XDG_DATA_HOME', join(realHome, '.local', 'share'));
  keep('XDG_CACHE_HOME', join(realHome, '.cache'));
  keep('XDG_CONFIG_HOME', join(realHome, '.config'));
  keep('PYENV_ROOT', join(realHome, '.pyenv'));
  return env;
}
