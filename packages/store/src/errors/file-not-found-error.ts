import { StoreError } from '../errors.js';

/** `read` was asked for a file that does not exist. */
export class FileNotFoundError extends StoreError {
  declare readonly code: 'file_not_found';
  /** The store path that was read. */
  readonly path: string;
  /** Where the backend looked (an absolute path, `s3://bucket/key`, `memory://...`). */
  readonly location: string;

  constructor(options: { path: string; location: string; cause?: unknown }) {
    super('file_not_found', `File not found: ${JSON.stringify(options.path)} (${options.location})`, {
      cause: options.cause,
    });
    this.path = options.path;
    this.location = options.location;
  }
}
