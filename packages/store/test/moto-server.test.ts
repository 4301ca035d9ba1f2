import { describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { startMotoServer } from '../src/testing/moto-server.js';
import { createTestBucket } from '../src/testing/test-bucket.js';

describe('startMotoServer', () => {
  it('starts moto on 127.0.0.1, serves a test bucket, and stops', async () => {
    const server = await startMotoServer();
    try {
      expect(server.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const bucket = await createTestBucket(server.endpoint);
      const store = bucket.createStore();
      expect(await store.writeIfAbsent('a.txt', 'x')).toBe(true);
      expect(await store.writeIfAbsent('a.txt', 'y')).toBe(false);
    } finally {
      await server.stop();
    }
    await expect(fetch(server.endpoint)).rejects.toThrow();
  });

  it('explains how to install moto or use X_S3_ENDPOINT when moto cannot be imported', async () => {
    const error = await startMotoServer({ python: '/nonexistent/python3' }).catch((reason: unknown) => reason);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).message).toContain("pip install 'moto[server]'");
    expect((error as StoreError).message).toContain('X_S3_ENDPOINT');
  });
});
