import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeConversation,
  type FakeSocketServer,
  startFakeSocketServer,
} from '../support/fake-event-socket-host.js';
import { connectRecording, type RecordingSocket } from '../support/socket-client.js';

// Client frames that are neither a Message nor exactly the reference's redundant auth frame
// (`{"type":"auth"}` with at most `session_api_key`): each is answered with an InvalidClientFrameError on that
// socket, never ignored and never a crash, and the socket goes on taking messages.

const KEY = 'session-key-1';

const errorsOf = (client: RecordingSocket) => client.frames.filter((frame) => frame.kind === 'ServerErrorEvent');

describe('event sockets: client frames that are not messages', () => {
  let server: FakeSocketServer;
  let conversation: FakeConversation;
  beforeEach(async () => {
    server = await startFakeSocketServer({ apiKeys: [KEY], options: { authTimeoutMs: 600_000 } });
    conversation = await server.addConversation('c1');
  });
  afterEach(() => server.close());

  async function authenticated(): Promise<RecordingSocket> {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`, { headers: { 'X-Session-API-Key': KEY } });
    await client.waitFor((frames) => frames.length === 1);
    return client;
  }

  it('answers JSON that is not an object with an error naming the root, and keeps taking messages', async () => {
    const client = await authenticated();
    for (const frame of ['42', '"auth"', 'null', '[{"type":"auth"}]']) client.send(frame);
    await client.waitFor(() => errorsOf(client).length === 4);
    for (const error of errorsOf(client)) {
      expect(error).toMatchObject({ code: 'InvalidClientFrameError', source: 'environment' });
      expect(error.detail).toContain('(root)');
    }
    client.send({ role: 'user', content: 'still here' });
    await expect.poll(() => conversation.received.length).toBe(1);
    client.ws.close();
  });

  it('answers an auth-typed frame with other keys, and an empty object, instead of ignoring them', async () => {
    const client = await authenticated();
    client.send({ type: 'auth', session_api_key: KEY, note: 'extra' });
    client.send({});
    client.send({ type: 'auth' });
    client.send({ role: 'user', content: 'after the frames' });
    await expect.poll(() => conversation.received.length).toBe(1);
    await client.waitFor(() => errorsOf(client).length === 2);
    expect(errorsOf(client).map((error) => error.code)).toEqual(['InvalidClientFrameError', 'InvalidClientFrameError']);
    expect(conversation.received).toHaveLength(1);
    client.ws.close();
  });

  it('closes with 4001 when the first frame is JSON null', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.opened;
    client.send('null');
    expect(await client.closed).toEqual({ code: 4001, reason: 'Authentication failed' });
    const next = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await next.opened;
    next.send({ type: 'auth', session_api_key: KEY });
    await next.waitFor((frames) => frames.length === 1);
    next.ws.close();
  });
});
