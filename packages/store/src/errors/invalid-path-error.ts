import { StoreError } from '../errors.js';

/** A path given to a FileStore is not a confined, relative, `/`-separated path. */
export class InvalidPathError extends StoreError {
  declare readonly code: 'invalid_path';
  /** The path exactly as it was given. */
  readonly path: string;
  /** Why it was rejected, e.g. `contains a ".." segment`. */
  readonly reason: string;

  constructor(options: { path: string; reason: string; cause?: unknown }) {
    super('invalid_path', `Invalid store path ${JSON.stringify(options.path)}: ${options.reason}`, {
      cause: options.cause,
    });
    this.path = options.path;
    this.reason = options.reason;
  }
}
