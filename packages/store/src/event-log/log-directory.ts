import { validateStorePath } from '../store-path.js';

/** Where a log's files are in its store when no `dir` is given. */
export const DEFAULT_LOG_DIRECTORY = 'events';

/**
 * The directory of a log's files in its store, from a `dir` option (`EventLog.open`, `verifyEventChain`,
 * `signChainHead`): checked once, where it is given, so a bad one (`''`, absolute, with `..`) is refused with an
 * `InvalidPathError` naming it as given, not as the first path built under it, and every entry point refuses the
 * same ones (a verifier given `''` would otherwise look for a log at the store's root).
 */
export function logDirectory(dir: string | undefined): string {
  return validateStorePath(dir ?? DEFAULT_LOG_DIRECTORY);
}
