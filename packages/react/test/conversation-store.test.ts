import { startXServe, type XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../src/conversation-store.js';

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

async function createConversation(url: string, messages: number): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: AUTH, body: JSON.stringify(body) });
    expect(response.status, path).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  };
  const created = await post('/api/conversations', {
    agent: { llm: { model: 'offline' }, tools: [], x_offline_script: [] },
    initial_message: null,
  });
  const id = created.id as string;
  for (let message = 0; message < messages; message++) {
    await post(`/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: `message ${message}` }],
      run: false,
    });
  }
  return id;
}

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
});
