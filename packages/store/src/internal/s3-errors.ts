import { StoreBackendError } from '../errors/store-backend-error.js';
import { StoreError } from '../errors.js';

/** The error name the AWS SDK gives a service error (`NoSuchKey`, `PreconditionFailed`, ...). */
export function s3ErrorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, Code } = error as { name?: unknown; Code?: unknown };
  if (typeof Code === 'string') return Code;
  return typeof name === 'string' ? name : undefined;
}

/** The HTTP status of a failed S3 call, when the SDK recorded one. */
export function s3Status(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const metadata = (error as { $metadata?: { httpStatusCode?: unknown } }).$metadata;
  return typeof metadata?.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
}

/** Wraps an AWS SDK failure in a StoreBackendError (cause attached); StoreErrors pass through. */
export function toS3StoreError(
  error: unknown,
  context: { operation: string; path: string; location: string },
): StoreError {
  if (StoreError.isInstance(error)) return error;
  const name = s3ErrorName(error);
  const status = s3Status(error);
  const message = error instanceof Error && error.message !== '' && error.message !== name ? `: ${error.message}` : '';
  return new StoreBackendError({
    ...context,
    backendCode: name,
    detail: `S3 ${name ?? 'error'}${status === undefined ? '' : ` (HTTP ${status})`}${message}`,
    cause: error,
  });
}
