// ConversationInfo fields that mirror the conversation's state as the reference reports it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('ConversationInfo', () => {
  it("reports persistence_dir as the conversation's own directory, as the reference's state records it", async () => {
    const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
    expect(created.status).toBe(201);
    const info = created.json as { id: string; persistence_dir: string; invoked_skills: unknown };
    const hex = info.id.replace(/-/g, '');
    const { json } = await server.call('GET', `/api/conversations/${info.id}`);
    for (const reported of [info, json as typeof info]) {
      expect(reported.persistence_dir.endsWith(`/${hex}`)).toBe(true);
      expect(reported.invoked_skills).toEqual([]);
    }
    // The directory named is where the conversation's files are.
    expect(info.persistence_dir).toBe(join(server.dataDir, 'conversations', hex));
  });
});
