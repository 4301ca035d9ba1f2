import { InvalidPathError } from './errors/invalid-path-error.js';

export interface ValidateStorePathOptions {
  /**
   * The path names a directory prefix (as given to `list`): a trailing `/` is accepted and `''` means
   * the root. Without it the path must name a file or directory entry, so `''` is rejected.
   */
  allowTrailingSlash?: boolean;
}

/**
 * Checks that `path` is a confined store path and returns it without any trailing `/`.
 *
 * Rejected (with an `InvalidPathError` naming the reason): non-strings, NUL characters, backslashes
 * (a Windows separator would mean different things on different backends), absolute paths, empty
 * segments (`a//b`), `.` and `..` segments. Rejecting `.` as well as `..` keeps one spelling per
 * file, so an S3 key and a filesystem path can never disagree about which file is meant.
 */
export function validateStorePath(path: string, options: ValidateStorePathOptions = {}): string {
  if (typeof path !== 'string') {
    throw new InvalidPathError({ path: String(path), reason: `expected a string, got ${typeof path}` });
  }
  const reason = findProblem(path, options.allowTrailingSlash === true);
  if (reason !== undefined) throw new InvalidPathError({ path, reason });
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function findProblem(path: string, directory: boolean): string | undefined {
  if (path === '') return directory ? undefined : 'a file path must not be empty';
  if (path.includes('\0')) return 'contains a NUL character';
  if (path.includes('\\')) return 'contains a backslash (use "/" as the separator)';
  if (path.startsWith('/')) return 'is absolute (store paths are relative to the store root)';
  let body = path;
  if (path.endsWith('/')) {
    if (!directory) return 'ends with "/" (only a list prefix may)';
    body = path.slice(0, -1);
  }
  for (const segment of body.split('/')) {
    if (segment === '') return 'contains an empty segment ("//")';
    if (segment === '..') return 'contains a ".." segment';
    if (segment === '.') return 'contains a "." segment';
  }
  return undefined;
}

/** Joins a validated directory prefix (possibly `''`) and a child name. */
export function joinStorePath(directory: string, name: string): string {
  return directory === '' ? name : `${directory}/${name}`;
}
