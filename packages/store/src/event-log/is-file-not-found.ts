import { StoreError } from '../errors.js';

/**
 * True for the store's "no such file" error. Checked by name and code rather than `instanceof` so it
 * holds for every backend and for duplicate installs of this package.
 */
export function isFileNotFound(error: unknown): boolean {
  return StoreError.isInstance(error) && (error.name === 'FileNotFoundError' || error.code === 'file_not_found');
}

/**
 * True for the store's errors about one file's content or type (corrupt, not a regular file, a
 * symbolic link): the file is there but cannot be used, and nothing else is wrong with the store.
 */
export function isUnreadableFile(error: unknown): boolean {
  if (!StoreError.isInstance(error)) return false;
  return error.code === 'corrupt_event' || error.code === 'not_regular_file' || error.code === 'invalid_path';
}
