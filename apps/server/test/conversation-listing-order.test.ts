// Conversation search (the file-backed listing, no database): its sort orders by creation and by last update, its
// paging from a page_id (an unknown one starts over), and batch get's answers for ids that cannot be conversations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
/** In creation order. */
const ids: string[] = [];

type Page = { items: { id: string }[]; next_page_id: string | null };

const search = async (query: string): Promise<Page> => {
  const response = await server.call('GET', `/api/conversations/search?${query}`);
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json as Page;
};
const idsOf = (page: Page) => page.items.map((item) => item.id);

beforeAll(async () => {
  server = await startTestServer();
  for (const title of ['first', 'second', 'third']) ids.push(await createConversation(server, { title }));
  // The first one created is the last one updated.
  const message = { role: 'user', content: [{ type: 'text', text: 'later' }], run: false };
  const sent = await server.call('POST', `/api/conversations/${ids[0]}/events`, message);
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('conversation search order and paging', () => {
  it('sorts by creation or by last update, either way round', async () => {
    const [first, second, third] = ids as [string, string, string];
    expect(idsOf(await search('sort_order=CREATED_AT'))).toEqual([first, second, third]);
    expect(idsOf(await search('sort_order=CREATED_AT_DESC'))).toEqual([third, second, first]);
    expect(idsOf(await search(''))).toEqual([third, second, first]);
    expect(idsOf(await search('sort_order=UPDATED_AT'))).toEqual([second, third, first]);
    expect(idsOf(await search('sort_order=UPDATED_AT_DESC'))).toEqual([first, third, second]);
  });

  it('goes on from a page_id (the next page’s first id), and starts over from an unknown one', async () => {
    const [first, second, third] = ids as [string, string, string];
    const one = await search('sort_order=CREATED_AT&limit=1');
    expect(idsOf(one)).toEqual([first]);
    expect(one.next_page_id?.replace(/-/g, '')).toBe(second.replace(/-/g, ''));
    const rest = await search(`sort_order=CREATED_AT&limit=2&page_id=${one.next_page_id}`);
    expect(rest).toEqual({
      items: [expect.objectContaining({ id: second }), expect.objectContaining({ id: third })],
      next_page_id: null,
    });
    const unknown = '0123456789abcdef0123456789abcdef';
    expect(idsOf(await search(`sort_order=CREATED_AT&limit=2&page_id=${unknown}`))).toEqual([first, second]);
  });

  it('answers batch get with null for an id that cannot be a conversation, and [] without ids', async () => {
    const batch = await server.call('GET', `/api/conversations?ids=not-an-id&ids=${ids[1]}&ids=..%2Fetc`);
    expect(batch.status).toBe(200);
    expect((batch.json as ({ id: string } | null)[]).map((item) => item?.id ?? null)).toEqual([null, ids[1], null]);
    expect(await server.call('GET', '/api/conversations')).toEqual({ status: 200, json: [] });
  });
});
