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
 * Rejected (with an `InvalidPathError` naming the reason): non-strings, NUL characters, lone UTF-16
 * surrogates (not valid Unicode: the filesystem writes each as U+FFFD, so two such paths would name one
 * file there and two in memory), backslashes (a Windows separator would mean different things on
 * different backends), absolute paths, empty segments (`a//b`), `.` and `..` segments, a segment over
 * 255 UTF-8 bytes (a file name on POSIX file systems) and a path over 1024 UTF-8 bytes (an S3 key).
 * Rejecting `.` as well as `..` keeps one spelling per file, and the length limits one verdict per path,
 * so an S3 key and a filesystem path can never disagree about which file is meant or whether it can exist.
 */
export function validateStorePath(path: string, options: ValidateStorePathOptions = {}): string {
  if (typeof path !== 'string') {
    throw new InvalidPathError({ path: String(path), reason: `expected a string, got ${typeof path}` });
  }
  const reason = findProblem(path, options.allowTrailingSlash === true);
  if (reason !== undefined) throw new InvalidPathError({ path, reason });
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/** With the `u` flag a surrogate pair is one code point, so this matches only unpaired halves. */
const loneSurrogate = /\p{Surrogate}/u;

/** The longest segment (NAME_MAX of POSIX file systems) and path (an S3 key), in UTF-8 bytes. */
const maxSegmentBytes = 255;
const maxPathBytes = 1024;

/**
 * Whether `text` takes more than `limit` bytes in UTF-8. Every path is validated on every store call: a text of at
 * most `limit / 3` UTF-16 units cannot pass the limit (no unit takes more than 3 bytes), so it is not encoded.
 */
function utf8LongerThan(text: string, limit: number): boolean {
  return text.length * 3 > limit && Buffer.byteLength(text, 'utf8') > limit;
}

function findProblem(path: string, directory: boolean): string | undefined {
  if (path === '') return directory ? undefined : 'a file path must not be empty';
  if (utf8LongerThan(path, maxPathBytes)) return `is longer than ${maxPathBytes} bytes`;
  if (path.includes('\0')) return 'contains a NUL character';
  if (loneSurrogate.test(path)) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
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
    if (utf8LongerThan(segment, maxSegmentBytes)) return `has a segment longer than ${maxSegmentBytes} bytes`;
  }
  return undefined;
}

/** Joins a validated directory prefix (possibly `''`) and a child name. */
export function joinStorePath(directory: string, name: string): string {
  return directory === '' ? name : `${directory}/${name}`;
}
