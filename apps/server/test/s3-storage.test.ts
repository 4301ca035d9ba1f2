import { startScriptedLLMServer } from '@x/agent/testing';
import { createTestBucket, type MotoServer, startMotoServer } from '@x/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, finishReply, removeDir, startTestServer, tempDir, waitForIdle } from './helpers.js';

// Conversations on S3: the server is configured with an S3 bucket (moto's server on 127.0.0.1, or
// X_S3_ENDPOINT) and nothing is written to the data directory's conversations folder.
let endpoint: string;
let moto: MotoServer | undefined;
beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  if (process.env.X_S3_ENDPOINT) {
    endpoint = process.env.X_S3_ENDPOINT;
  } else {
    moto = await startMotoServer();
    endpoint = moto.endpoint;
  }
}, 180_000);
afterAll(async () => {
  await moto?.stop();
});

describe('S3 storage', () => {
  it('creates, runs, lists after a restart and serves events from an S3 bucket', async () => {
    const { bucket } = await createTestBucket(endpoint);
    const s3 = { bucket, prefix: 'server-test', endpoint, region: 'us-east-1', forcePathStyle: true };
    const dataDir = await tempDir();
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm, config: { s3 } });
      llm.push(finishReply('stored on S3'));
      const id = await createConversation(first, { initial_message: { content: 'use S3' } });
      expect((await waitForIdle(first, id)).execution_status).toBe('finished');
      const before = (await first.call('GET', `/api/conversations/${id}/events/search`)).json as { items: unknown[] };
      expect(before.items.length).toBeGreaterThan(3);
      await first.built.close();

      const second = await startTestServer({ dataDir, llm, config: { s3 } });
      try {
        const listed = (await second.call('GET', '/api/conversations/search')).json as { items: { id: string }[] };
        expect(listed.items.map((item) => item.id)).toEqual([id]);
        const after = (await second.call('GET', `/api/conversations/${id}/events/search`)).json as { items: unknown[] };
        expect(after.items).toEqual(before.items);
      } finally {
        await second.built.close();
      }
    } finally {
      await llm.close();
      await removeDir(dataDir);
    }
  });
});
