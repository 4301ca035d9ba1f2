import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('generate_title max_length: the reference’s 1 to 200', () => {
  it('takes the smallest length the reference takes and cuts the title to it', async () => {
    const id = await createConversation(server);
    await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'Plan a trip to Rome' }],
    });
    server.llm.push({ content: 'Rome trip' });
    const titled = await server.call('POST', `/api/conversations/${id}/generate_title`, { max_length: 1 });
    expect(titled.status).toBe(200);
    expect((titled.json as { title: string }).title).toHaveLength(1);

    server.llm.push({ content: 'Rome trip' });
    const longest = await server.call('POST', `/api/conversations/${id}/generate_title`, { max_length: 200 });
    expect(longest).toEqual({ status: 200, json: { title: 'Rome trip' } });
  });

  it('refuses lengths outside 1 to 200 with 422', async () => {
    const id = await createConversation(server);
    for (const max_length of [0, 201, 2.5]) {
      const { status } = await server.call('POST', `/api/conversations/${id}/generate_title`, { max_length });
      expect({ max_length, status }).toEqual({ max_length, status: 422 });
    }
  });
});
