import type { XServe } from '@x/browser-testing';
import { type AnyEvent, createEvent } from '@x/events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RemoteAuthError,
  RemoteConversationNotFoundError,
  RemoteRequestError,
  RemoteStreamClosedError,
  streamConversationEvents,
} from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { api, eventually, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
let proxy: LoopbackProxy;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await proxy?.close();
});

async function conversation(): Promise<string> {
  const info = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent([]),
    workspace: { working_dir: '.' },
  })) as { id: string };
  return info.id;
}

async function say(id: string, text: string): Promise<void> {
  await api(server, 'POST', `/api/conversations/${id}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run: false,
  });
}

async function logIds(id: string): Promise<string[]> {
  const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100`)) as {
    items: { id: string }[];
  };
  return page.items.map((event) => event.id);
}

describe('reconnect details against x serve', TEST_TIMEOUT, () => {
  it('never waits longer than maxDelayMs, the first reconnect included', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    const waits: number[] = [];
    const readies: boolean[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      // A cap of 0 is "reconnect at once", whatever the initial delay says.
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 0 },
      onEvent: () => undefined,
      onDisconnect: (info) => waits.push(info.retryInMs),
      onReady: (info) => readies.push(info.reconnected),
    });
    await stream.ready;
    proxy.setSockets('refuse');
    proxy.dropSockets();
    await eventually(() => waits.length).toBeGreaterThanOrEqual(3);
    proxy.setSockets('pass');
    await eventually(() => readies).toEqual([false, true]);
    expect(new Set(waits)).toEqual(new Set([0]));
    stream.close();
    await stream.done;
  });

  it('resumes by timestamp after the newest event received, not from where it started', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    const received: AnyEvent[] = [];
    const readies: boolean[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      resume: 'timestamp',
      fromIndex: 0,
      reconnect: { initialDelayMs: 20, maxDelayMs: 40 },
      onEvent: (event, index) => {
        if (index !== undefined) received.push(event);
      },
      onReady: (info) => readies.push(info.reconnected),
    });
    await stream.ready;
    await say(id, 'one');
    await say(id, 'two');
    await eventually(() => received.length).toBe(3);
    proxy.dropSockets();
    await eventually(() => readies).toEqual([false, true]);
    // The reconnect asks for what followed the last event it has, not for the whole log again.
    const newest = (received.at(-1) as { timestamp: string }).timestamp;
    expect(proxy.socketRequests).toHaveLength(2);
    expect(proxy.socketRequests[1]).toContain(`resend_mode=since&after_timestamp=${encodeURIComponent(newest)}`);
    await say(id, 'three');
    const ids = await logIds(id);
    await eventually(() => received.map((event) => event.id)).toEqual(ids);
    stream.close();
    await stream.done;
  });

  it('does not resume by timestamp after a published-only frame, which may be newer than events still to come', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    const received: string[] = [];
    const published: string[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      resume: 'timestamp',
      fromIndex: 0,
      reconnect: { initialDelayMs: 20, maxDelayMs: 40 },
      onEvent: (event, index) => (index === undefined ? published : received).push(event.id),
    });
    await stream.ready;
    await eventually(() => received).toHaveLength(1);
    // An event appended but not delivered when a streaming delta, stamped later, arrives; then the drop.
    proxy.muteSockets(true);
    await say(id, 'not delivered before the drop');
    const delta = createEvent('StreamingDeltaEvent', { content: 'later' });
    proxy.injectFrame(JSON.stringify(delta));
    await eventually(() => published).toContain(delta.id);
    expect(received).toHaveLength(1);
    // Unmuted before the reconnect, which waits for a timer.
    proxy.dropSockets();
    proxy.muteSockets(false);
    const ids = await logIds(id);
    await eventually(() => received).toEqual(ids);
    stream.close();
    await stream.done;
  });

  it('ends at an upgrade refused as unauthorized or not found, and fails a first one refused otherwise with its status', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    const refusedWith = async (status: number): Promise<unknown> => {
      proxy.setSockets({ status });
      const stream = streamConversationEvents(proxy.url, id, { apiKey: KEY, fromIndex: 0, onEvent: () => undefined });
      return stream.done.then(
        () => 'resolved',
        (caught: unknown) => caught,
      );
    };
    expect(RemoteAuthError.isInstance(await refusedWith(401))).toBe(true);
    expect(RemoteAuthError.isInstance(await refusedWith(403))).toBe(true);
    expect(RemoteConversationNotFoundError.isInstance(await refusedWith(404))).toBe(true);
    const unavailable = await refusedWith(503);
    expect(RemoteRequestError.isInstance(unavailable) && unavailable.status).toBe(503);
  });

  it('counts an unreadable persisted frame in the index (it holds one in the log), and no other unreadable frame', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    const persisted: string[] = [];
    const published: string[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      fromIndex: 0,
      onEvent: (event, index) => (index === undefined ? published : persisted).push(`${index}:${event.id}`),
    });
    await stream.ready;
    await eventually(() => persisted).toHaveLength(1);
    proxy.injectFrame('not json');
    proxy.injectFrame('null');
    proxy.injectFrame(JSON.stringify({ kind: 42 }));
    proxy.injectFrame(JSON.stringify({ kind: 'StreamingDeltaEvent' }));
    proxy.injectFrame(JSON.stringify({ kind: 'ConversationStateUpdateEvent', key: 'full_state' }));
    // A message the schema refuses: it still holds its index in the server's log.
    proxy.injectFrame(JSON.stringify({ kind: 'MessageEvent', id: 'unreadable' }));
    // Frames arrive in order: once this one is heard, every unreadable one before it was handled.
    const marker = createEvent('ConversationStateUpdateEvent', { key: 'full_state', value: {} });
    proxy.injectFrame(JSON.stringify(marker));
    await eventually(() => published).toContain(`undefined:${marker.id}`);
    expect(persisted).toHaveLength(1);
    expect(stream.nextIndex).toBe(2);
    stream.close();
    await stream.done;
  });

  it('retries a refused first connection maxAttempts times when told to keep trying, then gives up', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    proxy.setSockets('refuse');
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      reconnect: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 2, retryFirstConnection: true },
      onEvent: () => undefined,
    });
    const error = await stream.done.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(RemoteStreamClosedError.isInstance(error)).toBe(true);
    // The first connection, then the two retries allowed.
    expect(proxy.socketConnections).toBe(3);
  });
});
