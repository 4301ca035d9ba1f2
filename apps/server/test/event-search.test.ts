import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, QUALIFIED_EVENT_KINDS } from '../src/index.js';
import { createConversation, removeDir, startTestServer, type TestServer } from './helpers.js';

type Item = Record<string, unknown>;
interface Page {
  items: Item[];
  next_page_id: string | null;
}

let server: TestServer;
let id: string;
const texts = ['Alpha apple', 'beta BANANA', 'gamma apple pie', 'delta', 'epsilon Apple'];

beforeAll(async () => {
  server = await startTestServer();
  id = await createConversation(server);
  for (const text of texts) {
    await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text }] });
  }
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function search(query: string): Promise<Page> {
  const { status, json } = await server.call('GET', `/api/conversations/${id}/events/search?${query}`);
  expect(status).toBe(200);
  return json as Page;
}

describe('event search', () => {
  it('pages through the log in order, and in reverse with TIMESTAMP_DESC', async () => {
    const all = await search('');
    expect(all.items).toHaveLength(1 + texts.length);
    expect(all.next_page_id).toBeNull();

    const walked: string[] = [];
    let page: string | null = null;
    do {
      const result: Page = await search(page === null ? 'limit=2' : `limit=2&page_id=${page}`);
      expect(result.items.length).toBeLessThanOrEqual(2);
      walked.push(...result.items.map((item) => item.id as string));
      page = result.next_page_id;
    } while (page !== null);
    expect(walked).toEqual(all.items.map((item) => item.id));

    const desc = await search('sort_order=TIMESTAMP_DESC&limit=3');
    expect(desc.items.map((item) => item.id)).toEqual(
      all.items
        .map((item) => item.id)
        .reverse()
        .slice(0, 3),
    );
    expect(desc.next_page_id).toBe(all.items.at(-4)?.id);

    const zero = await search('limit=0');
    expect(zero).toEqual({ items: [], next_page_id: all.items[0]?.id });
    const unknownPage = await search('page_id=nope&limit=1');
    expect(unknownPage.items[0]?.id).toBe(all.items[0]?.id);
  });

  it('filters by kind (class path or bare kind), source, body and timestamps, and counts', async () => {
    const byPath = await search(`kind=${QUALIFIED_EVENT_KINDS.MessageEvent}`);
    const byKind = await search('kind=MessageEvent');
    expect(byPath.items).toHaveLength(texts.length);
    expect(byKind.items).toEqual(byPath.items);
    expect((await search('kind=SystemPromptEvent')).items).toHaveLength(1);
    expect((await search('kind=NoSuchEvent')).items).toHaveLength(0);
    expect((await search('source=user')).items).toHaveLength(texts.length);
    expect((await search('source=agent')).items.map((item) => item.kind)).toEqual(['SystemPromptEvent']);

    const apples = await search('body=APPLE&limit=2');
    expect(apples.items.map((item) => (item.llm_message as { content: { text: string }[] }).content[0]?.text)).toEqual([
      'Alpha apple',
      'gamma apple pie',
    ]);
    expect(apples.next_page_id).not.toBeNull();
    const rest = await search(`body=apple&page_id=${apples.next_page_id}`);
    expect(rest.items).toHaveLength(1);

    const messages = byKind.items;
    const third = messages[2]?.timestamp as string;
    const fromThird = await search(`kind=MessageEvent&timestamp__gte=${encodeURIComponent(third)}`);
    expect(fromThird.items.map((item) => item.id)).toEqual(messages.slice(2).map((item) => item.id));
    const beforeThird = await search(`kind=MessageEvent&timestamp__lt=${encodeURIComponent(third)}`);
    expect(beforeThird.items.map((item) => item.id)).toEqual(messages.slice(0, 2).map((item) => item.id));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await search(`timestamp__gte=${encodeURIComponent(future)}`)).items).toHaveLength(0);
    expect((await search(`timestamp__lt=${encodeURIComponent(future)}`)).items).toHaveLength(1 + texts.length);
    // The same bound spelled with a space, as pydantic also takes it: compared as a datetime, not as text.
    const spaced = third.replace('T', ' ');
    const fromSpaced = await search(`kind=MessageEvent&timestamp__gte=${encodeURIComponent(spaced)}`);
    expect(fromSpaced.items.map((item) => item.id)).toEqual(messages.slice(2).map((item) => item.id));
    for (const bound of ['yesterday', '2024-02-30T10:00:00']) {
      const refused = await server.call('GET', `/api/conversations/${id}/events/search?timestamp__gte=${bound}`);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.json)).toContain('timestamp__gte');
    }

    const count = async (query: string) =>
      (await server.call('GET', `/api/conversations/${id}/events/count?${query}`)).json;
    expect(await count('')).toBe(1 + texts.length);
    expect(await count('body=apple')).toBe(3);
    expect(await count('kind=MessageEvent&source=user')).toBe(texts.length);
  });

  it('returns one event by id', async () => {
    const first = (await search('limit=1')).items[0] as Item;
    const { status, json } = await server.call('GET', `/api/conversations/${id}/events/${first.id as string}`);
    expect(status).toBe(200);
    expect(json).toEqual(first);
  });

  it('skips unreadable event files', async () => {
    const other = await createConversation(server);
    // More than the 64 recent events Conversation.resume reads itself (it refuses a corrupt one there).
    const sent = Array.from({ length: 70 }, (_, index) => `message ${index}`);
    for (const text of sent) {
      await server.call('POST', `/api/conversations/${other}/events`, { content: [{ type: 'text', text }] });
    }
    await server.built.close();
    const dir = join(server.dataDir, 'conversations', other.replace(/-/g, ''), 'events');
    const files = (await readdir(dir)).filter((name) => name.startsWith('event-')).sort();
    await writeFile(join(dir, files[2] as string), '{ not json');

    const reopened = await startTestServer({ dataDir: server.dataDir, llm: server.llm });
    try {
      const { json } = await reopened.call('GET', `/api/conversations/${other}/events/search?kind=MessageEvent`);
      const items = (json as Page).items;
      // events[2] is the second message (after the system prompt and the first message).
      const expected = sent.filter((_, index) => index !== 1);
      expect(items.map((item) => (item.llm_message as { content: { text: string }[] }).content[0]?.text)).toEqual(
        expected.slice(0, 100),
      );
      expect((await reopened.call('GET', `/api/conversations/${other}/events/count?source=user`)).json).toBe(69);
      const unfiltered = (await reopened.call('GET', `/api/conversations/${other}/events/search?limit=3`)).json as Page;
      expect(unfiltered.items.map((item) => item.kind)).toEqual(['SystemPromptEvent', 'MessageEvent', 'MessageEvent']);
    } finally {
      await reopened.built.close();
    }
    server = await startTestServer({ dataDir: server.dataDir, llm: server.llm });
  });

  it('reads only the page when no filter is given', async () => {
    const reads: string[] = [];
    const memory = createMemoryFileStore();
    const counting: FileStore = {
      ...memory,
      read: (path) => {
        reads.push(path);
        return memory.read(path);
      },
      describe: (path) => memory.describe(path),
    };
    const llm = await startScriptedLLMServer();
    const dataDir = server.dataDir;
    const first = await buildServer({ port: 0, dataDir, logLevel: 'silent' }, { store: counting });
    const { url } = await first.listen();
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = (await (
      await post('/api/conversations', { agent: { llm: { model: 'gpt-test', base_url: llm.baseURL } } })
    ).json()) as Item;
    for (let index = 0; index < 40; index++) {
      await post(`/api/conversations/${created.id as string}/events`, {
        content: [{ type: 'text', text: `m${index}` }],
      });
    }
    await first.close();

    const second = await buildServer({ port: 0, dataDir, logLevel: 'silent' }, { store: counting });
    const second_url = (await second.listen()).url;
    await fetch(`${second_url}/api/conversations/${created.id as string}`);
    reads.length = 0;
    const page = (await (
      await fetch(`${second_url}/api/conversations/${created.id as string}/events/search?limit=3&page_id=`)
    ).json()) as Page;
    expect(page.items).toHaveLength(3);
    expect(page.next_page_id).not.toBeNull();
    expect(reads.filter((path) => path.includes('/events/')).length).toBeLessThanOrEqual(3);
    await second.close();
    await llm.close();
  });
});
