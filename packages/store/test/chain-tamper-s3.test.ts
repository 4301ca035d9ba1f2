import { randomBytes } from 'node:crypto';
import { beforeAll } from 'vitest';
import { createTestBucket, type TestBucket } from '../src/testing/test-bucket.js';
import { describeChainTamperSuite } from './helpers/chain-tamper-suite.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';

const endpoint = s3TestEndpoint();
let bucket: TestBucket;

beforeAll(async () => {
  bucket = await createTestBucket(endpoint);
});

describeChainTamperSuite('S3 (moto)', async () =>
  bucket.createStore({ prefix: `chain-${randomBytes(4).toString('hex')}/` }),
);
