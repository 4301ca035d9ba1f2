import type { EventLogLike } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type FakeSocketServer, startFakeSocketServer } from '../support/fake-event-socket-host.js';
import { connectRecording } from '../support/socket-client.js';

// The socket layer's own care for a connection: a heartbeat that keeps a client answering pings and ends one that
// stopped answering, and a replay start that cannot be read ending the socket with 1011 instead of leaving it open.

let server: FakeSocketServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Resolves once `count` pings have reached `ws`, or with the close code if the server closed it first. */
function pingsOrClose(ws: WebSocket, count: number): Promise<{ pings: number; closed?: number }> {
  let pings = 0;
  return new Promise((resolve) => {
    ws.on('ping', () => {
      pings += 1;
      if (pings >= count) resolve({ pings });
    });
    ws.on('close', (code) => resolve({ pings, closed: code }));
  });
}

describe('event socket heartbeat', () => {
  it('keeps a client that answers the pings, and ends one that does not', async () => {
    // Long enough that a loaded machine still reads a pong before the next round judges the client.
    server = await startFakeSocketServer({ options: { heartbeatIntervalMs: 300 } });
    await server.addConversation('c1');
    const url = `${server.wsUrl}/sockets/events/c1`;
    const answering = new WebSocket(url);
    // A client whose pongs never come: the server must drop it after one unanswered ping.
    const silent = new WebSocket(url, { autoPong: false });
    const [kept, dropped] = await Promise.all([pingsOrClose(answering, 3), pingsOrClose(silent, 100)]);
    expect(kept).toEqual({ pings: 3 });
    expect(answering.readyState).toBe(WebSocket.OPEN);
    expect(dropped.closed).toBe(1006);
    answering.close();
  });
});

describe('event socket replay start', () => {
  it('closes with 1011 when the log cannot be read to find where to start', async () => {
    server = await startFakeSocketServer();
    const conversation = await server.addConversation('c1');
    const readable = conversation.log;
    const unreadable = new Proxy(readable, {
      get(target, key) {
        if (key === 'refresh') return async () => Promise.reject(new Error('the store is unreachable'));
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as EventLogLike;
    (conversation as { log: EventLogLike }).log = unreadable;
    const client = connectRecording(`${server.wsUrl}/sockets/events/c1?after_event_id=not-seen-yet`);
    expect(await client.closed).toEqual({ code: 1011, reason: 'Reading the event log failed' });
    expect(client.frames).toEqual([]);
    expect(server.logs.some((record) => record.level === 'error')).toBe(true);
  });
});
