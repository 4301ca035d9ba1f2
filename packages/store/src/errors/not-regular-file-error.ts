import { StoreError } from '../errors.js';

/**
 * A path names something other than a regular file (a FIFO, a socket, a device) where a file is
 * expected. The store never opens such a thing for reading in a way that could block, and never
 * reads through it; the entry is left as it is.
 */
export class NotRegularFileError extends StoreError {
  declare readonly code: 'not_regular_file';
  /** The store path as it was given. */
  readonly path: string;
  /** Where the entry is (an absolute path). */
  readonly location: string;
  /** What is there instead, e.g. `FIFO`, `socket`, `character device`. */
  readonly fileType: string;

  constructor(options: { path: string; location: string; fileType: string; cause?: unknown }) {
    super(
      'not_regular_file',
      `Not a regular file: ${JSON.stringify(options.path)} (${options.location}) is a ${options.fileType}`,
      { cause: options.cause },
    );
    this.path = options.path;
    this.location = options.location;
    this.fileType = options.fileType;
  }
}
