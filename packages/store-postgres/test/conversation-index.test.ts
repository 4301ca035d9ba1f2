import { afterEach, describe, expect, it } from 'vitest';
import { PostgresConversationIndex } from '../src/conversations/postgres-conversation-index.js';
import type { PostgresDatabase } from '../src/database.js';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { countingDatabase } from '../src/testing/counting-database.js';
import { freshTables } from './helpers/shared-database.js';

const open: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

async function index(): Promise<PostgresConversationIndex> {
  const database = await freshTables();
  open.push(database);
  return new PostgresConversationIndex(database);
}

describe('PostgresConversationIndex', () => {
  it('writes a file and the row that indexes it in one statement (one commit)', async () => {
    const database = await freshTables();
    open.push(database);
    const { database: counted, count } = countingDatabase(database);
    const conversations = new PostgresConversationIndex(counted);
    const meta = JSON.stringify({ id: 'c1', execution_status: 'running' });
    await conversations.upsert(
      { conversationId: 'c1', status: 'running' },
      { file: { path: 'c1/meta.json', data: meta } },
    );
    expect(count.commits).toBe(1);
    expect(await createPostgresFileStore(database).read('c1/meta.json')).toBe(meta);
    expect(await conversations.get('c1')).toMatchObject({ status: 'running' });
    // Again (an update of both), and a path the file store would refuse is refused before anything is written.
    await conversations.upsert(
      { conversationId: 'c1', status: 'finished' },
      { file: { path: 'c1/meta.json', data: '{}' } },
    );
    expect(await createPostgresFileStore(database).read('c1/meta.json')).toBe('{}');
    expect(await conversations.get('c1')).toMatchObject({ status: 'finished' });
    await expect(
      conversations.upsert({ conversationId: 'c1', status: 'idle' }, { file: { path: '../meta.json', data: '{}' } }),
    ).rejects.toThrow();
    expect(await conversations.get('c1')).toMatchObject({ status: 'finished' });
  });

  it('creates, updates (keeping what is left out) and reads a conversation and its snapshot', async () => {
    const conversations = await index();
    await conversations.upsert({ conversationId: 'c1', title: 'Fix the build', snapshot: '{"v":1}' });
    const created = await conversations.get('c1');
    expect(created).toMatchObject({ conversationId: 'c1', status: 'idle', title: 'Fix the build' });
    expect(created?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await conversations.upsert({ conversationId: 'c1', status: 'running' });
    expect(await conversations.get('c1')).toMatchObject({ status: 'running', title: 'Fix the build' });
    expect(await conversations.snapshot('c1')).toBe('{"v":1}');
    // A field given as undefined is left out too (a spread of optional fields): only null clears the title.
    await conversations.upsert({ conversationId: 'c1', status: 'finished', title: undefined, snapshot: undefined });
    expect(await conversations.get('c1')).toMatchObject({ status: 'finished', title: 'Fix the build' });
    expect(await conversations.snapshot('c1')).toBe('{"v":1}');
    await conversations.upsert({ conversationId: 'c1', title: null });
    expect((await conversations.get('c1'))?.title).toBeNull();
    expect(await conversations.delete('c1')).toBe(true);
    expect(await conversations.get('c1')).toBeUndefined();
  });

  it('keeps fork links (set once, kept by later writes) and lists the forks of a conversation, oldest first', async () => {
    const conversations = await index();
    await conversations.upsert({ conversationId: 'src' });
    await conversations.upsert({
      conversationId: 'f1',
      createdAt: '2026-01-01T00:00:00Z',
      forkedFrom: { conversationId: 'src', eventId: 'e1' },
    });
    await conversations.upsert({
      conversationId: 'f2',
      createdAt: '2026-01-02T00:00:00Z',
      forkedFrom: { conversationId: 'src', eventId: null },
    });
    // A later write of the fork's row (a status change) leaves its link alone.
    await conversations.upsert({ conversationId: 'f1', status: 'running' });
    expect(await conversations.forksOf('src')).toEqual([
      { conversationId: 'f1', fromEventId: 'e1' },
      { conversationId: 'f2', fromEventId: null },
    ]);
    expect(await conversations.forksOf('f1')).toEqual([]);
  });

  it('filters by status and title (wildcards taken literally) and pages newest first without gap or repeat', async () => {
    const conversations = await index();
    for (let i = 0; i < 25; i++) {
      await conversations.upsert({
        conversationId: `c${String(i).padStart(2, '0')}`,
        status: i % 3 === 0 ? 'finished' : 'idle',
        title: i === 7 ? 'Deploy 100% of it' : `Task ${i}`,
      });
    }
    expect(await conversations.count({ status: 'finished' })).toBe(9);
    expect(await conversations.count({ status: ['finished', 'idle'] })).toBe(25);
    expect((await conversations.search({ titleContains: '100%' })).items.map((item) => item.conversationId)).toEqual([
      'c07',
    ]);
    expect(await conversations.count({ titleContains: '%' })).toBe(1);

    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await conversations.search({ limit: 7, ...(pageToken === undefined ? {} : { pageToken }) });
      seen.push(...page.items.map((item) => item.conversationId));
      pageToken = page.nextPageToken;
    } while (pageToken !== undefined);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `c${String(24 - i).padStart(2, '0')}`));
    await expect(conversations.search({ pageToken: 'garbage' })).rejects.toThrow('pageToken');
  });

  it('orders by creation or update time either way, and starts a page at a given conversation', async () => {
    const conversations = await index();
    for (const id of ['k1', 'k2', 'k3', 'k4']) await conversations.upsert({ conversationId: id, status: 'idle' });
    // k2 updated last: first by update, still second by creation.
    await conversations.upsert({ conversationId: 'k2', status: 'finished' });
    const ids = async (search: Parameters<typeof conversations.search>[0]) =>
      (await conversations.search(search)).items.map((item) => item.conversationId);
    expect(await ids({ order: 'created_asc' })).toEqual(['k1', 'k2', 'k3', 'k4']);
    expect(await ids({ order: 'created_desc' })).toEqual(['k4', 'k3', 'k2', 'k1']);
    expect(await ids({ order: 'updated_desc' })).toEqual(['k2', 'k4', 'k3', 'k1']);
    expect(await ids({ order: 'updated_asc', limit: 2 })).toEqual(['k1', 'k3']);
    const first = await conversations.search({ order: 'created_asc', limit: 2 });
    expect(first.items.map((item) => item.conversationId)).toEqual(['k1', 'k2']);
    expect(await ids({ order: 'created_asc', pageToken: first.nextPageToken! })).toEqual(['k3', 'k4']);
    expect(await ids({ order: 'created_asc', startAt: 'k3' })).toEqual(['k3', 'k4']);
    expect(await ids({ order: 'created_desc', startAt: 'k3', status: 'idle' })).toEqual(['k3', 'k1']);
  });

  it('starts a page just after a place, which needs no row of its id any more', async () => {
    const conversations = await index();
    for (const id of ['p1', 'p2', 'p3', 'p4']) await conversations.upsert({ conversationId: id, status: 'idle' });
    const [, second] = (await conversations.search({ order: 'created_desc' })).items;
    const place = { at: second?.createdAt as string, conversationId: 'p3' };
    expect(second?.conversationId).toBe('p3');
    const ids = async (search: Parameters<typeof conversations.search>[0]) =>
      (await conversations.search(search)).items.map((item) => item.conversationId);
    expect(await ids({ order: 'created_desc', after: place })).toEqual(['p2', 'p1']);
    await conversations.delete('p3');
    await conversations.delete('p2');
    expect(await ids({ order: 'created_desc', after: place })).toEqual(['p1']);
    expect(await ids({ order: 'created_asc', after: place })).toEqual(['p4']);
  });
});
