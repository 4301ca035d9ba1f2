import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSocketServer, startFakeSocketServer } from '../support/fake-event-socket-host.js';
import { connectRecording } from '../support/socket-client.js';

const KEY = 'session-key-1';
const isFullState = (frame: Record<string, unknown>) =>
  frame.kind === 'ConversationStateUpdateEvent' && frame.key === 'full_state';

describe('event sockets: authentication', () => {
  let server: FakeSocketServer;
  beforeEach(async () => {
    // No test here may race the auth timeout on a loaded machine; the one about the timeout has its own server.
    server = await startFakeSocketServer({ apiKeys: ['other-key', KEY], options: { authTimeoutMs: 600_000 } });
    await server.addConversation('c1');
  });
  afterEach(() => server.close());

  it('accepts a valid key in the query', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?session_api_key=${KEY}`);
    await client.waitFor((frames) => frames.some(isFullState));
    client.ws.close();
  });

  it('accepts a valid key in the X-Session-API-Key header', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`, { headers: { 'X-Session-API-Key': KEY } });
    await client.waitFor((frames) => frames.some(isFullState));
    client.ws.close();
  });

  it('accepts a first frame {"type":"auth"} with a valid key, then streams', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.opened;
    client.send({ type: 'auth', session_api_key: KEY });
    await client.waitFor((frames) => frames.some(isFullState));
    client.ws.close();
  });

  it('ignores a redundant auth frame after authentication (no ServerErrorEvent, no message)', async () => {
    const conversation = await server.addConversation('c2');
    const client = connectRecording(`${server.wsUrl}/sockets/events/c2`, { headers: { 'X-Session-API-Key': KEY } });
    await client.waitFor((frames) => frames.some(isFullState));
    client.send({ type: 'auth', session_api_key: KEY });
    client.send({ role: 'user', content: 'after auth' });
    await expect.poll(() => conversation.received.length).toBe(1);
    expect(client.frames.filter((frame) => frame.kind === 'ServerErrorEvent')).toEqual([]);
    client.ws.close();
  });

  it('closes with 4001 for a wrong query key even when the header key is right (query wins)', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?session_api_key=wrong`, {
      headers: { 'X-Session-API-Key': KEY },
    });
    expect(await client.closed).toEqual({ code: 4001, reason: 'Authentication failed' });
    expect(client.frames).toEqual([]);
  });

  it('closes with 4001 for a wrong header key', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`, { headers: { 'X-Session-API-Key': 'nope' } });
    expect((await client.closed).code).toBe(4001);
    expect(client.frames).toEqual([]);
  });

  it.each([
    ['a wrong key', JSON.stringify({ type: 'auth', session_api_key: 'wrong' })],
    ['a message instead of auth', JSON.stringify({ role: 'user', content: 'hi' })],
    ['bad JSON', '{not json'],
    ['a non-object', '"auth"'],
  ])('closes with 4001 when the first frame is %s', async (_name, frame) => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.opened;
    client.send(frame);
    expect(await client.closed).toEqual({ code: 4001, reason: 'Authentication failed' });
    expect(client.frames).toEqual([]);
  });

  it('closes with 4001 when no auth frame arrives within the timeout', async () => {
    const impatient = await startFakeSocketServer({ apiKeys: [KEY], options: { authTimeoutMs: 300 } });
    try {
      await impatient.addConversation('c1');
      const client = connectRecording(`${impatient.wsUrl}/sockets/events/c1`);
      await client.opened;
      expect((await client.closed).code).toBe(4001);
      expect(client.frames).toEqual([]);
    } finally {
      await impatient.close();
    }
  });

  it('checks auth before looking the conversation up: an unknown id with a bad key is 4001, not 4004', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/missing?session_api_key=wrong`);
    expect((await client.closed).code).toBe(4001);
  });
});

describe('event sockets: routing and limits', () => {
  let server: FakeSocketServer;
  beforeEach(async () => {
    server = await startFakeSocketServer({ options: { maxSubscribersPerConversation: 2 } });
    await server.addConversation('c1');
  });
  afterEach(() => server.close());

  it('needs no key when the host has none', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await client.waitFor((frames) => frames.some(isFullState));
    client.ws.close();
  });

  it('refuses other upgrade paths with HTTP 404', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/other/c1`);
    await expect(client.opened).rejects.toThrow('HTTP 404');
  });

  it('closes with 4004 for an unknown conversation', async () => {
    const client = connectRecording(`${server.wsUrl}/sockets/events/unknown`);
    expect(await client.closed).toEqual({ code: 4004, reason: 'Conversation not found' });
  });

  it('closes with 1013 past the subscriber limit, and admits again once one leaves', async () => {
    const first = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    const second = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    await first.waitFor((frames) => frames.some(isFullState));
    await second.waitFor((frames) => frames.some(isFullState));
    const third = connectRecording(`${server.wsUrl}/sockets/events/c1`);
    expect(await third.closed).toEqual({ code: 1013, reason: 'Too many connections for this conversation' });
    first.ws.close();
    await first.closed;
    await expect
      .poll(async () => {
        const again = connectRecording(`${server.wsUrl}/sockets/events/c1`);
        const outcome = await Promise.race([
          again.waitFor((frames) => frames.some(isFullState)).then(() => 'admitted'),
          again.closed.then(({ code }) => `closed ${code}`),
        ]);
        again.ws.close();
        return outcome;
      })
      .toBe('admitted');
    second.ws.close();
  });
});
