import { StoreError } from '../errors.js';

/**
 * The storage backend failed for a reason other than a missing file: permissions, a missing bucket,
 * a full disk, a network error, a file where a directory was expected. The backend's own error is
 * the `cause`; `backendCode` repeats its code (`EACCES`, `NoSuchBucket`, ...) for branching.
 */
export class StoreBackendError extends StoreError {
  declare readonly code: 'backend_error';
  /** The FileStore method that failed, e.g. `write`. */
  readonly operation: string;
  /** The store path the operation was given. */
  readonly path: string;
  /** Where the backend was working (absolute path or `s3://` URL). */
  readonly location: string;
  /** The backend's error code or name, when it had one. */
  readonly backendCode: string | undefined;

  constructor(options: {
    operation: string;
    path: string;
    location: string;
    backendCode?: string | undefined;
    detail?: string;
    cause?: unknown;
  }) {
    const code = options.backendCode === undefined ? '' : ` [${options.backendCode}]`;
    const detail = options.detail ?? (options.cause instanceof Error ? options.cause.message : 'unknown failure');
    super(
      'backend_error',
      `FileStore ${options.operation} failed for ${JSON.stringify(options.path)} at ${options.location}${code}: ${detail}`,
      { cause: options.cause },
    );
    this.operation = options.operation;
    this.path = options.path;
    this.location = options.location;
    this.backendCode = options.backendCode;
  }
}
