import type { XServe } from '@x/browser-testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ResumeMode, streamConversationEvents } from '../src/index.js';
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

/**
 * Where a stream resuming by timestamp starts must be one point of the log: the events after it, each once.
 * Here REST answers only after the event socket is subscribed and an event has followed: a start point read
 * over REST after the subscription would take that event as already seen (and drop it when it arrives), or
 * a reconnect before that answer would resume live only. A drop then forces a resume from the start point.
 */
describe.each<{ resume: ResumeMode }>([{ resume: 'timestamp' }, { resume: 'auto' }])(
  "a stream resuming by $resume against a server in the reference's shape, while events are appended",
  TEST_TIMEOUT,
  ({ resume }) => {
    it('delivers each event after its start once, even when REST is slower than the socket', async () => {
      const id = await conversation();
      await say(id, 'before the stream');
      proxy = await startLoopbackProxy(server.url);
      proxy.actAsReference(true);
      proxy.whenSocketOpens(() => proxy.holdRest(true));
      const persisted: string[] = [];
      const indices: number[] = [];
      const readies: boolean[] = [];
      const stream = streamConversationEvents(proxy.url, id, {
        apiKey: KEY,
        resume,
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
      proxy.holdSocketFrames(true);
      await say(id, 'appended once the socket is subscribed');
      proxy.holdRest(false);
      proxy.dropSockets();
      proxy.holdSocketFrames(false);
      await eventually(() => readies).toEqual([false, true]);
      await say(id, 'after the reconnect');
      const ids = await logIds(id);
      await eventually(() => persisted.includes(ids.at(-1) ?? '')).toBe(true);
      expect(persisted).toEqual(ids.slice(2));
      expect(indices).toEqual([2, 3]);
      stream.close();
      await stream.done;
    });
  },
);

describe('where a stream resuming by timestamp starts', TEST_TIMEOUT, () => {
  it.each<ResumeMode>(['timestamp', 'auto'])(
    'starts when it is called, even when its first connection is refused and retried (%s)',
    async (resume) => {
      const id = await conversation();
      await say(id, 'before the stream');
      proxy = await startLoopbackProxy(server.url);
      proxy.actAsReference(true);
      proxy.setSockets('refuse');
      const persisted: string[] = [];
      const stream = streamConversationEvents(proxy.url, id, {
        apiKey: KEY,
        resume,
        reconnect: { initialDelayMs: 20, maxDelayMs: 40, retryFirstConnection: true },
        onEvent: (event, index) => {
          if (index !== undefined) persisted.push(`${index}:${event.id}`);
        },
      });
      await eventually(() => proxy.socketConnections).toBeGreaterThan(0);
      await say(id, 'while the first connection is refused');
      proxy.setSockets('pass');
      await stream.ready;
      const ids = await logIds(id);
      await eventually(() => persisted).toEqual([`2:${ids[2]}`]);
      stream.close();
      await stream.done;
    },
  );

  // By index too: there the start is the log's length (`events/count`), with no timestamp start to read.
  it.each(
    (['timestamp', 'index'] as const).flatMap((resume) => [
      { resume, fromIndex: 0, first: 0 },
      { resume, fromIndex: 2, first: 2 },
      { resume, fromIndex: -2, first: 1 },
      { resume, fromIndex: -9, first: 0 },
      { resume, fromIndex: undefined, first: 3 },
    ]),
  )(
    'starts at fromIndex $fromIndex ($resume): the events from index $first, each with its index',
    async ({ resume, fromIndex, first }) => {
      const id = await conversation();
      await say(id, 'one');
      await say(id, 'two');
      const persisted: string[] = [];
      const stream = streamConversationEvents(server.url, id, {
        apiKey: KEY,
        resume,
        ...(fromIndex === undefined ? {} : { fromIndex }),
        onEvent: (event, index) => {
          if (index !== undefined) persisted.push(`${index}:${event.id}`);
        },
      });
      await stream.ready;
      await say(id, 'live');
      const ids = await logIds(id);
      const expected = ids.map((eventId, index) => `${index}:${eventId}`).slice(first);
      await eventually(() => persisted).toEqual(expected);
      stream.close();
      await stream.done;
    },
  );
});

describe('reading where a stream resuming by timestamp starts', TEST_TIMEOUT, () => {
  it('keeps the log indices when an event is appended while the start is read', async () => {
    const id = await conversation();
    await say(id, 'before the stream');
    proxy = await startLoopbackProxy(server.url);
    proxy.whenRequest(/\/events\/search/, () => say(id, 'appended while the start is read'));
    const persisted: string[] = [];
    const stream = streamConversationEvents(proxy.url, id, {
      apiKey: KEY,
      resume: 'timestamp',
      onEvent: (event, index) => {
        if (index !== undefined) persisted.push(`${index}:${event.id}`);
      },
    });
    await stream.ready;
    await say(id, 'live');
    const ids = await logIds(id);
    expect(ids).toHaveLength(4);
    await eventually(() => persisted).toEqual([`3:${ids[3]}`]);
    stream.close();
    await stream.done;
  });

  it('finds the event before its start more than a page back', async () => {
    const id = await conversation();
    for (let n = 0; n < 101; n += 1) await say(id, `message ${n}`);
    const persisted: string[] = [];
    const stream = streamConversationEvents(server.url, id, {
      apiKey: KEY,
      resume: 'timestamp',
      fromIndex: 1,
      onEvent: (event, index) => {
        if (index !== undefined) persisted.push(`${index}:${event.id}`);
      },
    });
    await stream.ready;
    const ids: string[] = [];
    for await (const event of pages(id)) ids.push(event);
    expect(ids).toHaveLength(102);
    await eventually(() => persisted).toEqual(ids.map((eventId, index) => `${index}:${eventId}`).slice(1));
    stream.close();
    await stream.done;
  });
});

/** Every event id of the log, oldest first, page by page. */
async function* pages(id: string): AsyncGenerator<string> {
  let pageId: string | undefined;
  do {
    const query = pageId === undefined ? 'limit=100' : `limit=100&page_id=${pageId}`;
    const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?${query}`)) as {
      items: { id: string }[];
      next_page_id?: string | null;
    };
    for (const item of page.items) yield item.id;
    pageId = page.next_page_id ?? undefined;
  } while (pageId !== undefined);
}
