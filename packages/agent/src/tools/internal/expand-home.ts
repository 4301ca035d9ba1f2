import { homedir, userInfo } from 'node:os';
import { isAbsolute } from 'node:path';
import { InvalidToolError } from '../invalid-tool-error.js';

/** This user's name, or undefined where the system cannot say (no passwd entry for the uid). */
function ownUserName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * `~` at the start of a path or pattern as the reference expands it (Python's `os.path.expanduser`): `~` and
 * `~/rest` become the home directory (`home`, default this process's), `~name/rest` the home of user `name` where
 * `name` is this process's own user. Anything else, another user's `~name` included, is left as written. The result is
 * only a spelling: the tool then confines it to the workspace like any other path, so a home outside it is refused,
 * never read.
 */
export function expandHome(text: string, home: string = homedir()): string {
  if (!text.startsWith('~')) return text;
  const slash = text.indexOf('/');
  const end = slash === -1 ? text.length : slash;
  const name = text.slice(1, end);
  if (name !== '' && name !== ownUserName()) return text;
  const base = home.replace(/\/+$/, '');
  return `${base}${text.slice(end)}` || '/';
}

/** Refuses a `home` option that is not an absolute path (a relative one would land wherever the server runs). */
export function checkHomeOption(toolName: string, home: string | undefined): void {
  if (home !== undefined && !isAbsolute(home))
    throw new InvalidToolError(toolName, `${toolName} tool option home must be an absolute path, got '${home}'`);
}
