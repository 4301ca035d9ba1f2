// The timing a client cannot arrange reliably over a transport: a subscribe still looking up its conversation when the
// session ends or its unsubscribe arrives, and an unsubscribe between a change and its notification. (What clients
// see is in test/faces/mcp-resources*.test.ts.)
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { McpConversation, McpConversationHost } from './mcp-host.js';
import { McpSubscriptions } from './mcp-subscriptions.js';

/** A host of one conversation `c1` whose lookups wait for `release`, and whose watches are kept in `listeners`. */
function watchedHost() {
  const listeners = new Set<() => void>();
  const deletions = new Set<() => void>();
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  const conversation: McpConversation = {
    id: 'c1',
    isRunning: false,
    view: async () => ({
      conversation_id: 'c1',
      status: 'idle',
      final_answer: '',
      pending_actions: [],
      event_count: 0,
    }),
    sendMessage: async () => undefined,
    rejectPendingActions: async () => undefined,
    interrupt: async () => undefined,
    followRun: async () => undefined,
    state: async () => ({}),
    events: async () => ({ events: [], total: 0 }),
    watch(listener, options) {
      const watch = () => listener();
      listeners.add(watch);
      const deleted = options?.onDeleted;
      if (deleted !== undefined) deletions.add(deleted);
      return () => {
        listeners.delete(watch);
        if (deleted !== undefined) deletions.delete(deleted);
      };
    },
  };
  const host: McpConversationHost = {
    acceptsCreateBody: false,
    create: async () => conversation,
    find: async (id) => {
      await held;
      return id === 'c1' ? conversation : undefined;
    },
    page: async () => ({ conversations: [{ conversation_id: 'c1', status: 'idle' }] }),
  };
  return {
    host,
    listeners,
    /** Holds the lookups from now on; returns what releases them (and not those of a later hold). */
    hold(): () => void {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return release;
    },
    release: () => release(),
    grow: () => {
      for (const listener of listeners) listener();
    },
    /** The conversation is deleted: every watch's `onDeleted` is called. */
    delete: () => {
      for (const deleted of [...deletions]) deleted();
    },
  };
}

const URI = 'x://conversations/c1';

describe('McpSubscriptions', () => {
  it('leaves no watch behind when the session ends while a subscribe is still finding its conversation', async () => {
    const watched = watchedHost();
    const subscriptions = new McpSubscriptions(watched.host, () => undefined);
    watched.hold();
    const subscribing = subscriptions.subscribe(URI);
    subscriptions.close();
    watched.release();
    await subscribing;
    expect(watched.listeners.size).toBe(0);
  });

  it('lets an unsubscribe sent while its subscribe is still finding the conversation win: nothing is watched', async () => {
    const watched = watchedHost();
    const notified: string[] = [];
    const subscriptions = new McpSubscriptions(watched.host, (uri) => notified.push(uri));
    watched.hold();
    const subscribing = subscriptions.subscribe(URI);
    subscriptions.unsubscribe(URI);
    watched.release();
    await subscribing;
    expect(watched.listeners.size).toBe(0);
    watched.grow();
    await nextTurn();
    expect(notified).toEqual([]);

    // A subscribe sent after that unsubscribe is the client's last word: it holds.
    watched.hold();
    const first = subscriptions.subscribe(URI);
    subscriptions.unsubscribe(URI);
    const again = subscriptions.subscribe(URI);
    watched.release();
    await Promise.all([first, again]);
    expect(watched.listeners.size).toBe(1);
    watched.grow();
    await nextTurn();
    expect(notified).toEqual([URI]);
  });

  it('cancels every subscribe of the URI still finding its conversation, also once another of them has ended', async () => {
    const watched = watchedHost();
    const subscriptions = new McpSubscriptions(watched.host, () => undefined);
    const releaseFirst = watched.hold();
    const first = subscriptions.subscribe(URI);
    const releaseSecond = watched.hold();
    const second = subscriptions.subscribe(URI);
    releaseFirst();
    await first;
    expect(watched.listeners.size).toBe(1);
    subscriptions.unsubscribe(URI);
    releaseSecond();
    await second;
    expect(watched.listeners.size).toBe(0);
  });

  it('sends one notification for changes close together, and none for a change made before the subscription', async () => {
    const watched = watchedHost();
    const notified: string[] = [];
    const subscriptions = new McpSubscriptions(watched.host, (uri) => notified.push(uri));
    await subscriptions.subscribe(URI);
    watched.grow();
    watched.grow();
    await nextTurn();
    expect(notified).toEqual([URI]);

    // Given up, then watched again before the notification went out: the change came before this subscription.
    watched.grow();
    subscriptions.unsubscribe(URI);
    expect(watched.listeners.size).toBe(0);
    await subscriptions.subscribe(URI);
    await nextTurn();
    expect(notified).toEqual([URI]);
    watched.grow();
    await nextTurn();
    expect(notified).toEqual([URI, URI]);
  });

  it('notifies a resource whose conversation is deleted and drops its watch: later growth notifies nothing', async () => {
    const watched = watchedHost();
    const notified: string[] = [];
    const subscriptions = new McpSubscriptions(watched.host, (uri) => notified.push(uri));
    await subscriptions.subscribe(URI);
    watched.delete();
    expect(notified).toEqual([URI]);
    expect(watched.listeners.size).toBe(0);
    watched.grow();
    await nextTurn();
    expect(notified).toEqual([URI]);
  });
});
