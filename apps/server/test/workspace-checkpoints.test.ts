import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitForIdle } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('workspace_checkpoints (create body)', () => {
  it('captures the workspace after the steps of a conversation created with it', async () => {
    const created = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { workspace_checkpoints: true }),
    );
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo made > made.txt' } }] },
      finishReply('done'),
    );
    await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'go' }],
      run: true,
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    const updates = await server.call(
      'GET',
      `/api/conversations/${id}/events/search?kind=ConversationStateUpdateEvent&limit=100`,
    );
    const keys = (updates.json as { items: { key: string }[] }).items.map((event) => event.key);
    // One for the empty workspace the run found, one after the terminal wrote made.txt.
    expect(keys.filter((key) => key === 'x_workspace_checkpoint')).toHaveLength(2);
  });

  it('refuses a value that is not a boolean, naming the field', async () => {
    const { status, json } = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { workspace_checkpoints: 'yes' }),
    );
    expect(status).toBe(422);
    expect(JSON.stringify(json)).toContain('workspace_checkpoints');
  });
});
