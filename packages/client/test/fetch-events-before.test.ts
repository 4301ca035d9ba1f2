import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchEventsBefore, InvalidOptionError, RemoteAuthError, RemoteRequestError } from '../src/index.js';
import { startLoopbackProxy } from './support/loopback-proxy.js';
import { api, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** A conversation with `messages` user messages after its first event; returns its id and its log's ids. */
async function conversationWith(messages: number): Promise<{ id: string; ids: string[] }> {
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
  const ids: string[] = [];
  let pageId: string | null = null;
  do {
    const query: string = pageId === null ? '' : `&page_id=${pageId}`;
    const page = (await api(server, 'GET', `/api/conversations/${id}/events/search?limit=100${query}`)) as {
      items: { id: string }[];
      next_page_id: string | null;
    };
    ids.push(...page.items.map((event) => event.id));
    pageId = page.next_page_id;
  } while (pageId !== null);
  return { id, ids };
}

const idsOf = (page: { events: readonly { id: string }[] }) => page.events.map((event) => event.id);

describe('fetchEventsBefore against x serve', TEST_TIMEOUT, () => {
  it('returns the events just before one, oldest first, and says when the log’s first is among them', async () => {
    const { id, ids } = await conversationWith(5);
    expect(ids).toHaveLength(6);
    const last = ids[5] as string;
    const older = await fetchEventsBefore(server.url, id, last, { apiKey: KEY, limit: 2 });
    expect({ ids: idsOf(older), reachedStart: older.reachedStart }).toEqual({
      ids: ids.slice(3, 5),
      reachedStart: false,
    });
    // Exactly up to index 0: nothing is older.
    const toStart = await fetchEventsBefore(server.url, id, ids[2] as string, { apiKey: KEY, limit: 2 });
    expect({ ids: idsOf(toStart), reachedStart: toStart.reachedStart }).toEqual({
      ids: ids.slice(0, 2),
      reachedStart: true,
    });
    const pastStart = await fetchEventsBefore(server.url, id, ids[1] as string, { apiKey: KEY, limit: 5 });
    expect({ ids: idsOf(pastStart), reachedStart: pastStart.reachedStart }).toEqual({
      ids: ids.slice(0, 1),
      reachedStart: true,
    });
    const none = await fetchEventsBefore(server.url, id, ids[0] as string, { apiKey: KEY });
    expect(none).toMatchObject({ events: [], reachedStart: true, slots: 0, oldestEventId: undefined });
  });

  it('takes 50 by default, 1 to 99 when asked, and covers as many places of the log', async () => {
    const { id, ids } = await conversationWith(120);
    const newest = ids.at(-1) as string;
    const before = ids.slice(0, -1);
    const byDefault = await fetchEventsBefore(server.url, id, newest, { apiKey: KEY });
    expect(idsOf(byDefault)).toEqual(before.slice(-50));
    expect(byDefault).toMatchObject({ slots: 50, oldestEventId: before.at(-50), reachedStart: false });
    const most = await fetchEventsBefore(server.url, id, newest, { apiKey: KEY, limit: 99 });
    expect(idsOf(most)).toEqual(before.slice(-99));
    const least = await fetchEventsBefore(server.url, id, newest, { apiKey: KEY, limit: 1 });
    expect(idsOf(least)).toEqual(before.slice(-1));
    expect(least).toMatchObject({ slots: 1, oldestEventId: before.at(-1) });
  });

  it('refuses a limit that is not an integer from 1 to 99 with a typed error naming it, before any request', async () => {
    const { id, ids } = await conversationWith(1);
    const proxy = await startLoopbackProxy(server.url);
    try {
      for (const limit of [Number.NaN, -1, 0, 2.5, Number.POSITIVE_INFINITY, 100, 500]) {
        const error = await fetchEventsBefore(proxy.url, id, ids[1] as string, { apiKey: KEY, limit }).catch(
          (caught: unknown) => caught,
        );
        expect(InvalidOptionError.isInstance(error), `limit ${limit}`).toBe(true);
        expect(error).toMatchObject({ code: 'invalid_option', option: 'limit' });
        expect((error as Error).message).toContain(`\`limit\``);
        expect((error as Error).message).toContain(String(limit));
      }
      expect(proxy.requests).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('fails with a typed error for an event not in the conversation, or a wrong key', async () => {
    const first = await conversationWith(1);
    const other = await conversationWith(1);
    const foreign = other.ids[1] as string;
    const error = await fetchEventsBefore(server.url, first.id, foreign, { apiKey: KEY }).catch((e: unknown) => e);
    expect(RemoteRequestError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(foreign);
    await expect(fetchEventsBefore(server.url, first.id, first.ids[1] as string, { apiKey: 'wrong' })).rejects.toThrow(
      RemoteAuthError,
    );
  });
});
