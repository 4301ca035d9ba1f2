// `q` on conversation search and count (an x extension): title or id contains the text, ignoring case; it
// combines with status and pagination and covers every conversation, not one page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  for (const title of ['Deploy the Billing service', 'billing report for March', 'Fix the login page']) {
    ids[title] = await createConversation(server, { title });
  }
  ids.untitled = await createConversation(server);
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Page = { items: { id: string; title: string | null }[]; next_page_id: string | null };

const search = async (query: string): Promise<Page> => {
  const response = await server.call('GET', `/api/conversations/search?${query}`);
  expect(response.status).toBe(200);
  return response.json as Page;
};

describe('conversation search and count with q', () => {
  it('keeps the conversations whose title contains the text, ignoring case', async () => {
    const page = await search('q=BILLING&sort_order=CREATED_AT');
    expect(page.items.map((item) => item.title)).toEqual(['Deploy the Billing service', 'billing report for March']);
    expect((await server.call('GET', '/api/conversations/count?q=billing')).json).toBe(2);
    expect((await search('q=nothing-like-this')).items).toEqual([]);
  });

  it('matches the id, hyphenated or as 32 hex, also of an untitled conversation', async () => {
    const id = ids.untitled as string;
    expect((await search(`q=${id.slice(0, 13)}`)).items.map((item) => item.id)).toEqual([id]);
    expect((await search(`q=${id.replace(/-/g, '').slice(4, 20)}`)).items.map((item) => item.id)).toEqual([id]);
  });

  it('pages through the matches only, and combines with status', async () => {
    const first = await search('q=billing&limit=1&sort_order=CREATED_AT');
    expect(first.items.map((item) => item.title)).toEqual(['Deploy the Billing service']);
    expect(first.next_page_id).not.toBeNull();
    const second = await search(`q=billing&limit=1&sort_order=CREATED_AT&page_id=${first.next_page_id}`);
    expect(second.items.map((item) => item.title)).toEqual(['billing report for March']);
    expect(second.next_page_id).toBeNull();
    const idle = (await server.call('GET', '/api/conversations/count?q=billing&status=idle')).json as number;
    const finished = (await server.call('GET', '/api/conversations/count?q=billing&status=finished')).json as number;
    expect([idle, finished]).toEqual([2, 0]);
  });

  it('refuses a q longer than 200 characters with a 422 naming it (as every invalid query)', async () => {
    const response = await server.call('GET', `/api/conversations/search?q=${'a'.repeat(201)}`);
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.json)).toContain('q');
  });

  it('documents q in the OpenAPI document of both routes', async () => {
    const openapi = (await server.call('GET', '/openapi.json')).json as {
      paths: Record<string, { get: { parameters: { name: string; in: string; description?: string }[] } }>;
    };
    for (const path of ['/api/conversations/search', '/api/conversations/count']) {
      const q = openapi.paths[path]?.get.parameters.find((parameter) => parameter.name === 'q');
      expect(q, path).toMatchObject({ in: 'query', description: expect.stringContaining('title or id') });
    }
  });
});
