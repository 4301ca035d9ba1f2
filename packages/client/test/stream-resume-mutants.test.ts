import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamConversationEvents } from '../src/index.js';
import { type LoopbackProxy, startLoopbackProxy } from './support/loopback-proxy.js';
import { api, eventually, finish, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

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

async function conversation(script: Parameters<typeof scriptedAgent>[0] = []): Promise<string> {
  const info = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent(script, ['terminal']),
    workspace: { working_dir: '.' },
  })) as { id: string };
  return info.id;
}

async function say(id: string, text: string, run = false): Promise<void> {
  await api(server, 'POST', `/api/conversations/${id}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run,
  });
}

async function logIds(id: string): Promise<string[]> {
  const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100`)) as {
    items: { id: string }[];
  };
  return page.items.map((event) => event.id);
}

async function status(id: string): Promise<unknown> {
  return ((await api(server, 'GET', `/api/conversations/${id}`)) as { execution_status?: unknown }).execution_status;
}

describe('resuming an event stream against x serve', TEST_TIMEOUT, () => {
  it('resumes by timestamp when told to: only the events after its start, each once', async () => {
    const id = await conversation();
    await say(id, 'before the stream');
    proxy = await startLoopbackProxy(server.url);
    const persisted: string[] = [];
    const indices: number[] = [];
    const readies: boolean[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      resume: 'timestamp',
      reconnect: { initialDelayMs: 20, maxDelayMs: 40 },
      onEvent: (event, index) => {
        if (index === undefined) return;
        persisted.push(event.id);
        indices.push(index);
      },
      onReady: (info) => readies.push(info.reconnected),
    });
    await stream.ready;
    expect(stream.resumeMode).toBe('timestamp');
    // The newest event when the stream started is remembered (by a REST search), so that a reconnect asks for
    // what followed it even when nothing came in between: not "live only", which would lose what it missed.
    await eventually(() => proxy.requests.some((line) => line.includes('sort_order=TIMESTAMP_DESC'))).toBe(true);
    proxy.setSockets('refuse');
    proxy.dropSockets();
    await say(id, 'while away');
    proxy.setSockets('pass');
    await eventually(() => readies).toEqual([false, true]);
    await say(id, 'after');
    const ids = await logIds(id);
    await eventually(() => persisted).toEqual(ids.slice(2));
    expect(indices).toEqual([2, 3]);
    // Only the first connection takes a baseline: taken again at a reconnect, the newest event could be one the
    // replay has not delivered yet, which would then be dropped as already seen.
    expect(proxy.requests.filter((line) => line.includes('sort_order=TIMESTAMP_DESC'))).toHaveLength(1);
    stream.close();
    await stream.done;
  });

  it('resolves auto to index against x serve, and a snapshot after a run is not a new connection', async () => {
    const id = await conversation([finish('done')]);
    const readies: boolean[] = [];
    let snapshots = 0;
    const stream = streamConversationEvents(server.url, id, {
      apiKey: KEY,
      resume: 'auto',
      onEvent: (event) => {
        if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state') snapshots += 1;
      },
      onReady: (info) => readies.push(info.reconnected),
    });
    await stream.ready;
    expect(stream.resumeMode).toBe('index');
    await say(id, 'go', true);
    await eventually(() => status(id)).toBe('finished');
    // The snapshot published once the run ended has arrived: it was not taken for a new connection's.
    await eventually(() => snapshots).toBeGreaterThan(1);
    expect(readies).toEqual([false]);
    stream.close();
    await stream.done;
  });

  it('keeps a healthy connection past the ready timeout', async () => {
    const id = await conversation([finish('done')]);
    const persisted: string[] = [];
    // Long enough for a connection to get ready on a loaded machine; the run starts only once it has passed.
    const readyTimeoutMs = 2_000;
    const started = performance.now();
    const stream = streamConversationEvents(server.url, id, {
      apiKey: KEY,
      readyTimeoutMs,
      reconnect: false,
      onEvent: (event, index) => {
        if (index !== undefined) persisted.push(event.id);
      },
    });
    let ended = false;
    void stream.done.finally(() => {
      ended = true;
    });
    await stream.ready;
    // Past the ready timeout: a timer still armed after ready would have cut the connection by now.
    await eventually(() => performance.now() - started > readyTimeoutMs + 100).toBe(true);
    expect(ended).toBe(false);
    await say(id, 'go', true);
    await eventually(() => status(id)).toBe('finished');
    const ids = await logIds(id);
    await eventually(() => persisted).toEqual(ids.slice(1));
    stream.close();
    await stream.done;
  });

  it('backs off, doubling up to the cap, and starts over after each successful reconnect', async () => {
    const id = await conversation();
    proxy = await startLoopbackProxy(server.url);
    const waits: number[] = [];
    const readies: boolean[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      reconnect: { initialDelayMs: 40, maxDelayMs: 100, maxAttempts: 4 },
      onEvent: () => undefined,
      onDisconnect: (info) => waits.push(info.retryInMs),
      onReady: (info) => readies.push(info.reconnected),
    });
    await stream.ready;
    proxy.setSockets('refuse');
    proxy.dropSockets();
    await eventually(() => waits.length).toBe(4);
    proxy.setSockets('pass');
    await eventually(() => readies.length).toBe(2);
    // Delays 40, 80, 100 (capped), 100; each wait between half and all of its delay.
    const ranges = [
      [20, 40],
      [40, 80],
      [50, 100],
      [50, 100],
    ];
    waits.forEach((wait, n) => {
      expect(wait).toBeGreaterThanOrEqual(ranges[n]![0]!);
      expect(wait).toBeLessThanOrEqual(ranges[n]![1]!);
    });
    // A second drop after a successful reconnect: attempts and delays start over (four more allowed).
    proxy.setSockets('refuse');
    proxy.dropSockets();
    await eventually(() => waits.length).toBe(8);
    proxy.setSockets('pass');
    await eventually(() => readies.length).toBe(3);
    expect(waits[4]).toBeLessThanOrEqual(40);
    stream.close();
    await stream.done;

    const eager = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      reconnect: { initialDelayMs: 0 },
      onEvent: () => undefined,
      onDisconnect: (info) => waits.push(info.retryInMs),
    });
    await eager.ready;
    proxy.dropSockets();
    await eventually(() => waits.length).toBe(9);
    expect(waits[8]).toBe(0);
    eager.close();
    await eager.done;
  });
});
