import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RemoteAuthError,
  RemoteConversationNotFoundError,
  RemoteRequestError,
  RemoteStreamClosedError,
  RemoteTimeoutError,
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

/** A conversation with `messages` user messages after its system prompt; returns its id. */
async function conversationWith(messages: number): Promise<string> {
  const info = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent([]),
    workspace: { working_dir: '.' },
  })) as { id: string };
  for (let n = 0; n < messages; n += 1) await say(info.id, `message ${n}`);
  return info.id;
}

async function say(id: string, text: string): Promise<void> {
  await api(server, 'POST', `/api/conversations/${id}/events`, { role: 'user', content: [{ type: 'text', text }] });
}

async function logIds(id: string): Promise<string[]> {
  const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100`)) as {
    items: { id: string }[];
  };
  return page.items.map((event) => event.id);
}

/** Persisted frames received, as `index:id`. */
function recorder() {
  const persisted: string[] = [];
  const published: string[] = [];
  return {
    persisted,
    published,
    onEvent: (event: { id: string; kind: string }, index: number | undefined) => {
      if (index === undefined) published.push(event.kind);
      else persisted.push(`${index}:${event.id}`);
    },
  };
}

const indexed = (ids: string[], from = 0) => ids.map((id, position) => `${position + from}:${id}`);

describe('streamConversationEvents against x serve', TEST_TIMEOUT, () => {
  it('starts where fromIndex says: an index, the last N, or live only', async () => {
    const id = await conversationWith(3);
    const ids = await logIds(id);
    expect(ids).toHaveLength(4);

    const fromOne = recorder();
    const one = streamConversationEvents(server.url, id, { apiKey: KEY, fromIndex: 1, onEvent: fromOne.onEvent });
    const lastTwo = recorder();
    const two = streamConversationEvents(server.url, id, { apiKey: KEY, fromIndex: -2, onEvent: lastTwo.onEvent });
    const tooMany = recorder();
    const all = streamConversationEvents(server.url, id, { apiKey: KEY, fromIndex: -9, onEvent: tooMany.onEvent });
    const live = recorder();
    const liveOnly = streamConversationEvents(server.url, id, { apiKey: KEY, onEvent: live.onEvent });
    await Promise.all([one.ready, two.ready, all.ready, liveOnly.ready]);
    expect(liveOnly.nextIndex).toBe(4);
    expect(live.published).toContain('ConversationStateUpdateEvent');
    await say(id, 'live');
    const now = await logIds(id);
    await eventually(() => live.persisted).toEqual(indexed(now.slice(4), 4));
    await eventually(() => fromOne.persisted).toEqual(indexed(now.slice(1), 1));
    await eventually(() => lastTwo.persisted).toEqual(indexed(now.slice(2), 2));
    await eventually(() => tooMany.persisted).toEqual(indexed(now));
    expect(one.nextIndex).toBe(5);
    expect(one.resumeMode).toBe('index');
    for (const stream of [one, two, all, liveOnly]) stream.close();
    await Promise.all([one.done, two.done, all.done, liveOnly.done]);
  });

  it('resumes by index after drops: nothing lost, nothing repeated, backing off between attempts', async () => {
    const id = await conversationWith(1);
    proxy = await startLoopbackProxy(server.url);
    const got = recorder();
    const disconnects: { code: number; retryInMs: number }[] = [];
    const readies: boolean[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      fromIndex: 0,
      reconnect: { initialDelayMs: 40, maxDelayMs: 60 },
      onEvent: got.onEvent,
      onDisconnect: (info) => disconnects.push(info),
      onReady: (info) => readies.push(info.reconnected),
    });
    await stream.ready;
    await eventually(() => got.persisted.length).toBe(2);
    proxy.setSockets('refuse');
    proxy.dropSockets();
    await eventually(() => proxy.socketConnections).toBeGreaterThanOrEqual(4);
    await say(id, 'while away');
    proxy.setSockets('pass');
    await eventually(() => readies.length).toBe(2);
    await say(id, 'after');
    const ids = await logIds(id);
    await eventually(() => got.persisted).toEqual(indexed(ids));
    expect(readies).toEqual([false, true]);
    // Each wait is between half and all of its delay: 40, then 60 (doubled, capped), then 60.
    const waits = disconnects.map((entry) => entry.retryInMs);
    expect(waits[0]).toBeGreaterThanOrEqual(20);
    expect(waits[0]).toBeLessThanOrEqual(40);
    for (const wait of waits.slice(1)) {
      expect(wait).toBeGreaterThanOrEqual(30);
      expect(wait).toBeLessThanOrEqual(60);
    }
    expect(disconnects[0]?.code).toBe(1006);
    stream.close();
    await stream.done;
  });

  it('gives up after maxAttempts failed reconnects, and at the first drop without reconnect', async () => {
    const id = await conversationWith(0);
    proxy = await startLoopbackProxy(server.url);
    const limited = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      reconnect: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 },
      onEvent: () => undefined,
    });
    await limited.ready;
    proxy.setSockets('refuse');
    proxy.dropSockets();
    const error = await limited.done.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(RemoteStreamClosedError.isInstance(error)).toBe(true);
    expect((error as RemoteStreamClosedError).closeCode).toBe(1006);
    // The first connection, then the two reconnects allowed.
    expect(proxy.socketConnections).toBe(3);

    proxy.setSockets('pass');
    const once = streamConversationEvents(proxy.url, id, { apiKey: KEY, reconnect: false, onEvent: () => undefined });
    await once.ready;
    proxy.dropSockets();
    await expect(once.done).rejects.toSatisfy((caught) => RemoteStreamClosedError.isInstance(caught));
    expect(proxy.socketConnections).toBe(4);
  });

  it('fails the first connection at once, unless told to keep trying', async () => {
    const id = await conversationWith(0);
    proxy = await startLoopbackProxy(server.url);
    proxy.setSockets('refuse');
    const failing = streamConversationEvents(proxy.url, id, { apiKey: KEY, onEvent: () => undefined });
    const error = await failing.ready.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(RemoteRequestError.isInstance(error)).toBe(true);
    expect((error as RemoteRequestError).status).toBe(0);
    await expect(failing.done).rejects.toBe(error);
    expect(proxy.socketConnections).toBe(1);

    const readies: boolean[] = [];
    const patient = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      reconnect: { initialDelayMs: 5, maxDelayMs: 10, retryFirstConnection: true },
      onEvent: () => undefined,
      onReady: (info) => readies.push(info.reconnected),
    });
    await eventually(() => proxy.socketConnections).toBeGreaterThanOrEqual(3);
    proxy.setSockets('pass');
    await patient.ready;
    expect(readies).toEqual([true]);
    patient.close();
    await patient.done;
  });

  it('times out a connection that never sends its snapshot', async () => {
    const id = await conversationWith(0);
    proxy = await startLoopbackProxy(server.url);
    proxy.setSockets('stall');
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      readyTimeoutMs: 200,
      onEvent: () => undefined,
    });
    const error = await stream.ready.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(RemoteTimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('200');
  });

  it('ends on abort or close, and fails with typed errors for a wrong key or an unknown conversation', async () => {
    const id = await conversationWith(0);
    const controller = new AbortController();
    const got = recorder();
    const stream = streamConversationEvents(server.url, id, {
      apiKey: KEY,
      signal: controller.signal,
      onEvent: got.onEvent,
    });
    await stream.ready;
    controller.abort();
    await stream.done;
    await say(id, 'after abort');
    expect(got.persisted).toEqual([]);

    const aborted = new AbortController();
    aborted.abort();
    const never = streamConversationEvents(server.url, id, { apiKey: KEY, signal: aborted.signal, onEvent: () => 0 });
    await never.done;

    const wrongKey = streamConversationEvents(server.url, id, { apiKey: 'wrong', fromIndex: 0, onEvent: () => 0 });
    await expect(wrongKey.done).rejects.toSatisfy((caught) => RemoteAuthError.isInstance(caught));
    const unknown = streamConversationEvents(server.url, crypto.randomUUID(), {
      apiKey: KEY,
      fromIndex: 0,
      reconnect: { retryFirstConnection: true },
      onEvent: () => 0,
    });
    await expect(unknown.done).rejects.toSatisfy((caught) => RemoteConversationNotFoundError.isInstance(caught));
  });
});
