import { inject } from 'vitest';
import { StoreError } from '../../src/errors.js';

/**
 * The S3-compatible endpoint the global setup started (or `X_S3_ENDPOINT`). When none could be started, every S3
 * test fails with the reason and the install instructions, while the package's other tests still run.
 */
export function s3TestEndpoint(): string {
  const endpoint = inject('s3Endpoint');
  if (endpoint !== '') return endpoint;
  throw new StoreError('moto_unavailable', inject('s3Unavailable') ?? 'No S3-compatible test server is available.');
}
