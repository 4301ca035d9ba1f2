import { startXServe, type XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../src/conversation-store.js';
import { startFrameProxy } from './support/frame-proxy.js';
import { startPageRewritingProxy } from './support/page-rewriting-proxy.js';

/**
 * ConversationStore without React or a browser: in Node (the client's `ws`) against a real `x serve`, for what the
 * page test does not reach (a refused stream, a failed `loadOlder`, `stop()` before `start()` or twice).
 */
const KEY = 'store-key';
const AUTH = { 'x-session-api-key': KEY, 'content-type': 'application/json' };

/** Polls until the assertion holds: generous, because the machine running the suite may be heavily loaded. */
const eventually = <T>(read: () => T) => expect.poll(read, { timeout: 60_000, interval: 25 });

let server: XServe;

beforeAll(async () => {
  server = await startXServe({ apiKey: KEY });
});
afterAll(async () => {
  await server?.stop();
});

async function post(url: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: AUTH, body: JSON.stringify(body) });
  expect(response.status, path).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/** Adds a user message to the log (no run). */
async function say(url: string, conversationId: string, text: string): Promise<void> {
  await post(url, `/api/conversations/${conversationId}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run: false,
  });
}

async function createConversation(url: string, messages: number): Promise<string> {
  const created = await post(url, '/api/conversations', {
    agent: { llm: { model: 'offline' }, tools: [], x_offline_script: [] },
    initial_message: null,
  });
  const id = created.id as string;
  for (let message = 0; message < messages; message++) await say(url, id, `message ${message}`);
  return id;
}

/** The ids of the conversation's log, in order, read over REST. */
async function logIds(url: string, conversationId: string): Promise<string[]> {
  const ids: string[] = [];
  let pageId: string | null = null;
  do {
    const query: string = pageId === null ? '' : `&page_id=${pageId}`;
    const response = await fetch(`${url}/api/conversations/${conversationId}/events/search?limit=100${query}`, {
      headers: AUTH,
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: { id: string }[]; next_page_id: string | null };
    ids.push(...page.items.map((event) => event.id));
    pageId = page.next_page_id;
  } while (pageId !== null);
  return ids;
}

const heldIds = (store: ConversationStore) => store.getSnapshot().events.map((event) => event.id);

describe('ConversationStore (Node, against x serve)', () => {
  it('shows why the stream was refused (a wrong key) and ends closed', async () => {
    const conversationId = await createConversation(server.url, 0);
    const store = new ConversationStore({ baseUrl: server.url, conversationId, apiKey: 'wrong', reconnect: false });
    try {
      store.start();
      await eventually(() => store.getSnapshot().connection).toBe('closed');
      expect(store.getSnapshot().error).toBeInstanceOf(Error);
      expect(store.getSnapshot().events).toEqual([]);
    } finally {
      store.stop();
    }
  });

  it('stops only once, and a stop before any start changes nothing', async () => {
    const conversationId = await createConversation(server.url, 0);
    const store = new ConversationStore({ baseUrl: server.url, conversationId, apiKey: KEY });
    const idle = store.getSnapshot();
    store.stop();
    expect(store.getSnapshot()).toBe(idle);
    store.start();
    await eventually(() => store.getSnapshot().connection).toBe('open');
    store.stop();
    const stopped = store.getSnapshot();
    expect(stopped.connection).toBe('closed');
    store.stop();
    expect(store.getSnapshot()).toBe(stopped);
  });

  it('shows a failed loadOlder as the error and is no longer loading', async () => {
    // A server of its own, stopped under the store so that the page fetch fails.
    const own = await startXServe({ apiKey: KEY });
    let stopped = false;
    const conversationId = await createConversation(own.url, 3);
    const store = new ConversationStore({
      baseUrl: own.url,
      conversationId,
      apiKey: KEY,
      reconnect: false,
      fromIndex: -1,
    });
    try {
      store.start();
      await eventually(() => store.getSnapshot().events.length).toBe(1);
      expect(store.getSnapshot().hasOlder).toBe(true);
      store.stop();
      await own.stop();
      stopped = true;
      await store.loadOlder(2);
      const after = store.getSnapshot();
      expect(after.loadingOlder).toBe(false);
      expect(after.error).toBeInstanceOf(Error);
      expect(after.events).toHaveLength(1);
    } finally {
      store.stop();
      if (!stopped) await own.stop();
    }
  });
  it('goes on after stop() and start() from the end of the events held, missing none appended meanwhile', async () => {
    const conversationId = await createConversation(server.url, 4);
    const store = new ConversationStore({ baseUrl: server.url, conversationId, apiKey: KEY, fromIndex: -2 });
    try {
      store.start();
      await eventually(() => store.getSnapshot().connection).toBe('open');
      const before = await logIds(server.url, conversationId);
      await eventually(() => heldIds(store)).toEqual(before.slice(-2));
      store.stop();
      // While stopped, the log grows by more than the window: `fromIndex` counted from the new end would skip some.
      await say(server.url, conversationId, 'while stopped 1');
      await say(server.url, conversationId, 'while stopped 2');
      await say(server.url, conversationId, 'while stopped 3');
      const after = await logIds(server.url, conversationId);
      store.start();
      await eventually(() => heldIds(store).at(-1)).toBe(after.at(-1));
      expect(heldIds(store)).toEqual(after.slice(before.length - 2));
      expect(store.getSnapshot().firstIndex).toBe(before.length - 2);
      // The stream stopped before ends without closing the new one.
      await say(server.url, conversationId, 'after the restart');
      const last = (await logIds(server.url, conversationId)).at(-1);
      await eventually(() => heldIds(store).at(-1)).toBe(last);
      expect(store.getSnapshot().connection).toBe('open');
    } finally {
      store.stop();
    }
  });

  it('starts its window at the log’s end when nothing is replayed, and knows older events exist', async () => {
    const conversationId = await createConversation(server.url, 0);
    // A new conversation's log holds one event: a window starting after it has exactly one older event.
    expect(await logIds(server.url, conversationId)).toHaveLength(1);
    const store = new ConversationStore({ baseUrl: server.url, conversationId, apiKey: KEY, fromIndex: 1 });
    try {
      store.start();
      await eventually(() => store.getSnapshot().connection).toBe('open');
      expect(store.getSnapshot()).toMatchObject({ events: [], firstIndex: 1, hasOlder: true });
      // No event held to load older ones before: nothing happens, and nothing fails.
      await store.loadOlder();
      expect(store.getSnapshot()).toMatchObject({ events: [], firstIndex: 1, loadingOlder: false, error: undefined });
      // The next event is shown at its log index, after the window's start.
      await say(server.url, conversationId, 'second');
      await eventually(() => heldIds(store)).toEqual((await logIds(server.url, conversationId)).slice(1));
      expect(store.getSnapshot()).toMatchObject({ firstIndex: 1, hasOlder: true });
    } finally {
      store.stop();
    }
  });

  it('goes on after stop() and start() from the index after the last event streamed, an unreadable one counted', async () => {
    const conversationId = await createConversation(server.url, 1);
    const proxy = await startFrameProxy(server.url);
    const store = new ConversationStore({ baseUrl: proxy.url, conversationId, apiKey: KEY });
    try {
      store.start();
      const first = await logIds(server.url, conversationId);
      await eventually(() => heldIds(store)).toEqual(first);
      // The next event reaches the client as a kind it cannot read (a newer server's): left out, its index kept.
      proxy.holdFrames(true);
      await say(server.url, conversationId, 'unreadable here');
      await eventually(() => proxy.heldText).toContain('unreadable here');
      proxy.discardHeldFrames();
      proxy.injectFrame(JSON.stringify({ kind: 'MessageEvent', id: 'unreadable' }));
      proxy.holdFrames(false);
      await say(server.url, conversationId, 'readable');
      const log = await logIds(server.url, conversationId);
      const readable = [...first, log[first.length + 1]];
      await eventually(() => heldIds(store)).toEqual(readable);
      expect(store.getSnapshot().nextIndex).toBe(first.length + 2);
      store.stop();
      store.start();
      await eventually(() => store.getSnapshot().connection).toBe('open');
      // Nothing held is asked for again, and nothing held is shown twice.
      expect(proxy.socketRequests.at(-1)).toContain(`from_index=${first.length + 2}`);
      await say(server.url, conversationId, 'after the restart');
      const now = await logIds(server.url, conversationId);
      await eventually(() => heldIds(store)).toEqual([...readable, now.at(-1)]);
    } finally {
      store.stop();
      await proxy.close();
    }
  });

  it('opens again on start() after the stream ended by itself, from the end of the events held', async () => {
    const conversationId = await createConversation(server.url, 1);
    const proxy = await startFrameProxy(server.url);
    const store = new ConversationStore({ baseUrl: proxy.url, conversationId, apiKey: KEY, reconnect: false });
    try {
      store.start();
      const first = await logIds(server.url, conversationId);
      await eventually(() => heldIds(store)).toEqual(first);
      proxy.dropSockets();
      await eventually(() => store.getSnapshot().connection).toBe('closed');
      expect(store.getSnapshot().error).toBeInstanceOf(Error);
      await say(server.url, conversationId, 'while closed');
      // A retry (a page's button, say) without stop() first.
      store.start();
      await eventually(() => store.getSnapshot().connection).toBe('open');
      expect(store.getSnapshot().error).toBeUndefined();
      expect(proxy.socketRequests.at(-1)).toContain(`from_index=${first.length}`);
      const now = await logIds(server.url, conversationId);
      await eventually(() => heldIds(store)).toEqual(now);
    } finally {
      store.stop();
      await proxy.close();
    }
  });

  it('loads older events in front of those held, one load at a time, up to the log’s first', async () => {
    const conversationId = await createConversation(server.url, 4);
    const ids = await logIds(server.url, conversationId);
    const store = new ConversationStore({ baseUrl: server.url, conversationId, apiKey: KEY, fromIndex: -2 });
    const loading: boolean[] = [];
    store.subscribe(() => loading.push(store.getSnapshot().loadingOlder));
    try {
      store.start();
      await eventually(() => heldIds(store)).toEqual(ids.slice(-2));
      loading.length = 0;
      // A second call while the first is under way does nothing.
      await Promise.all([store.loadOlder(2), store.loadOlder(2)]);
      expect(heldIds(store)).toEqual(ids.slice(-4));
      expect(store.getSnapshot()).toMatchObject({ firstIndex: ids.length - 4, hasOlder: true, loadingOlder: false });
      expect(loading).toContain(true);
      await store.loadOlder(50);
      expect(heldIds(store)).toEqual(ids);
      expect(store.getSnapshot()).toMatchObject({ firstIndex: 0, hasOlder: false, loadingOlder: false });
      expect(store.getSnapshot().error).toBeUndefined();
    } finally {
      store.stop();
    }
  });

  it('counts the unreadable events of older pages in firstIndex, and asks the next page before them', async () => {
    const conversationId = await createConversation(server.url, 8);
    const ids = await logIds(server.url, conversationId);
    expect(ids).toHaveLength(9);
    const proxy = await startPageRewritingProxy(server.url);
    // As a newer server's events: the oldest of the first page, and one between readable ones.
    proxy.makeUnreadable([ids[4] as string, ids[6] as string]);
    const store = new ConversationStore({ baseUrl: proxy.url, conversationId, apiKey: KEY, fromIndex: -2 });
    try {
      store.start();
      await eventually(() => heldIds(store)).toEqual(ids.slice(7));
      await store.loadOlder(3);
      expect(store.getSnapshot().error).toBeUndefined();
      expect(heldIds(store)).toEqual([ids[5], ids[7], ids[8]]);
      expect(store.getSnapshot()).toMatchObject({ firstIndex: 4, hasOlder: true });
      await store.loadOlder(3);
      expect(heldIds(store)).toEqual([ids[1], ids[2], ids[3], ids[5], ids[7], ids[8]]);
      expect(store.getSnapshot()).toMatchObject({ firstIndex: 1, hasOlder: true });
      await store.loadOlder(3);
      expect(heldIds(store)).toEqual([ids[0], ids[1], ids[2], ids[3], ids[5], ids[7], ids[8]]);
      expect(store.getSnapshot()).toMatchObject({ firstIndex: 0, hasOlder: false, error: undefined });
    } finally {
      store.stop();
      await proxy.close();
    }
  });

  it('refuses a limit that is not an integer from 1 to 99, as the snapshot’s error, and loads nothing', async () => {
    const conversationId = await createConversation(server.url, 3);
    const ids = await logIds(server.url, conversationId);
    const store = new ConversationStore({ baseUrl: server.url, conversationId, apiKey: KEY, fromIndex: -1 });
    try {
      store.start();
      await eventually(() => heldIds(store)).toEqual(ids.slice(-1));
      await store.loadOlder(Number.NaN);
      expect(store.getSnapshot().error).toMatchObject({ code: 'invalid_option', option: 'limit' });
      expect(store.getSnapshot()).toMatchObject({ firstIndex: ids.length - 1, loadingOlder: false });
      expect(heldIds(store)).toEqual(ids.slice(-1));
    } finally {
      store.stop();
    }
  });
});
