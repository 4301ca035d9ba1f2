import { StoreError } from '../errors.js';

/**
 * True for the store's "no such file" error. Checked by name and code rather than `instanceof` so it
 * holds for every backend and for duplicate installs of this package.
 */
export function isFileNotFound(error: unknown): boolean {
  return StoreError.isInstance(error) && (error.name === 'FileNotFoundError' || error.code === 'file_not_found');
}
