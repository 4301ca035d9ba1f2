import { randomBytes } from 'node:crypto';
import { StoreBackendError } from '../errors/store-backend-error.js';
import { StoreError } from '../errors.js';

/**
 * Temporary files of in-flight writes: `.<name>.tmp-<pid>-<12 hex>`. The local store hides them from
 * `list`, removes stale ones, and reserves the pattern so no stored file can be mistaken for one.
 */
export const TEMP_FILE_PATTERN = /^\..*\.tmp-\d+-[0-9a-f]{12}$/;

/** How old a temp file must be before `list` treats it as the leftover of an interrupted write. */
export const STALE_TEMP_AGE_MS = 60_000;

/** Random bytes for temp names, drawn in bulk: one `randomBytes` call costs ~10 µs, as much as a `link()`. */
const RANDOM_POOL_SIZE = 6 * 512;
let randomPool = Buffer.alloc(0);
let randomOffset = RANDOM_POOL_SIZE;

/** A fresh temp name for a file named `name`, to be made in the same directory (so the final rename or link never crosses a filesystem). */
export function tempNameFor(name: string): string {
  if (randomOffset + 6 > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_SIZE);
    randomOffset = 0;
  }
  const suffix = randomPool.toString('hex', randomOffset, randomOffset + 6);
  randomOffset += 6;
  // Shortened so the temp name stays under the 255-byte file-name limit when the target is near it.
  return `.${name.slice(0, 100)}.tmp-${process.pid}-${suffix}`;
}

/** The `code` of a Node system error (`ENOENT`, ...), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Wraps a filesystem failure; StoreErrors (already typed) pass through unchanged. */
export function toStoreError(
  error: unknown,
  context: { operation: string; path: string; location: string },
): StoreError {
  if (StoreError.isInstance(error)) return error;
  return new StoreBackendError({ ...context, backendCode: errnoCode(error), cause: error });
}
