import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { FileStore } from '../file-store.js';
import { createS3FileStore, type S3FileStoreOptions } from '../s3-file-store.js';

export interface TestBucket {
  readonly endpoint: string;
  readonly bucket: string;
  /** A client for the test server (path-style, dummy credentials, no retries). */
  readonly client: S3Client;
  /** An S3 FileStore in this bucket; give each test its own `prefix` (default: a random one). */
  createStore(options?: Pick<S3FileStoreOptions, 'prefix' | 'listPageSize'>): FileStore;
}

/** Client settings for a local test server (moto, MinIO) at `endpoint`. */
export function createTestS3Client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Creates a bucket with a fresh random name on the test server at `endpoint`. */
export async function createTestBucket(endpoint: string): Promise<TestBucket> {
  const client = createTestS3Client(endpoint);
  const bucket = `x-test-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    createStore(options = {}) {
      const prefix = options.prefix ?? `t-${randomBytes(4).toString('hex')}/`;
      return createS3FileStore({ ...options, prefix, bucket, client });
    },
  };
}
