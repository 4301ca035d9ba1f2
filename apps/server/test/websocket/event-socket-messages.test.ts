// A message frame sent over a real server's event socket is recorded as the user's message and run on, as the
// reference's socket does (the other socket tests use a fake host, so this is the conversation's own path).
import { afterEach, describe, expect, it } from 'vitest';
import { createConversation, finishReply, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
import { connectRecording } from '../support/socket-client.js';

let server: TestServer | undefined;

afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

describe('message frames on a conversation’s event socket', () => {
  it('records the message and runs on it', async () => {
    server = await startTestServer();
    const id = await createConversation(server);
    server.llm.push(finishReply('heard you'));
    const client = connectRecording(`${server.url.replace(/^http/, 'ws')}/sockets/events/${id}`);
    await client.opened;
    client.send({ role: 'user', content: [{ type: 'text', text: 'over the socket' }] });
    const running = server;
    await waitFor(async () => {
      const info = (await running.call('GET', `/api/conversations/${id}`)).json as { execution_status: string };
      return info.execution_status === 'finished';
    });
    const messages = await running.call('GET', `/api/conversations/${id}/events/search?kind=MessageEvent`);
    expect(JSON.stringify(messages.json)).toContain('over the socket');
    expect(server.llm.requests).toHaveLength(1);
    expect(JSON.stringify(server.llm.requests[0])).toContain('over the socket');
    client.ws.close();
  });
});
