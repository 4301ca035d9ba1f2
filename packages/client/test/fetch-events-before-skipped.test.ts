import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchEventsBefore } from '../src/index.js';
import { api, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

// A page of older events whose log holds events this client cannot read: they are left out of `events`, and the
// page says how many and which, so that a partial page is never taken for a whole one.
let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

type Item = Record<string, unknown>;

/** The real events of a conversation of `messages` user messages, newest first (as a descending search sends them). */
async function newestFirstEvents(messages: number): Promise<Item[]> {
  const { id } = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent([]),
    workspace: { working_dir: '.' },
  })) as { id: string };
  for (let n = 0; n < messages; n += 1) {
    await api(server, 'POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: `message ${n}` }],
      run: false,
    });
  }
  const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100`)) as { items: Item[] };
  return page.items.reverse();
}

/** A loopback server answering every events search with `items` and `nextPageId`. */
async function servePage(items: unknown[], nextPageId: string | null): Promise<{ url: string; server: Server }> {
  const page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ items, next_page_id: nextPageId }));
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(page.address() as AddressInfo).port}`, server: page };
}

describe('fetchEventsBefore with events it cannot read', TEST_TIMEOUT, () => {
  it('counts the unreadable events the page covers and names those with an id, oldest first', async () => {
    const events = await newestFirstEvents(6);
    const ids = events.map((event) => String(event.id));
    // Newest first: the anchor, then four readable or not, then one past the last id (the next page's).
    const items = [
      events[0],
      events[1],
      { id: events[2]?.id, kind: 'MessageEvent', source: 'user' },
      { not: 'an event' },
      { id: events[4]?.id, kind: 'MessageEvent' },
      events[5],
      { id: 7 },
    ];
    const page = await servePage(items, 'next');
    try {
      const before = await fetchEventsBefore(page.url, 'c', ids[0] as string, { apiKey: KEY, limit: 6 });
      expect(before.events.map((event) => event.id)).toEqual([ids[5], ids[1]]);
      expect(before).toMatchObject({
        slots: 5,
        skipped: 3,
        skippedEventIds: [ids[4], ids[2]],
        oldestEventId: ids[5],
        reachedStart: false,
      });
      expect(before.events.length + before.skipped).toBe(before.slots);
    } finally {
      await new Promise((resolve) => page.server.close(resolve));
    }
  });

  it('counts an unreadable event without an id at the start of the log too, and none on a whole page', async () => {
    const events = await newestFirstEvents(2);
    const ids = events.map((event) => String(event.id));
    const atStart = await servePage([events[0], events[1], 'garbage'], null);
    try {
      const before = await fetchEventsBefore(atStart.url, 'c', ids[0] as string, { apiKey: KEY });
      expect(before).toMatchObject({ slots: 2, skipped: 1, skippedEventIds: [], reachedStart: true });
      expect(before.events.map((event) => event.id)).toEqual([ids[1]]);
    } finally {
      await new Promise((resolve) => atStart.server.close(resolve));
    }
    const whole = await servePage(events, null);
    try {
      const before = await fetchEventsBefore(whole.url, 'c', ids[0] as string, { apiKey: KEY });
      expect(before).toMatchObject({ slots: 2, skipped: 0, skippedEventIds: [] });
      expect(before.events).toHaveLength(2);
    } finally {
      await new Promise((resolve) => whole.server.close(resolve));
    }
  });
});
