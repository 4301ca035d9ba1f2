import { afterEach, describe, expect, it } from 'vitest';
import { PostgresConversationIndex } from '../src/conversations/postgres-conversation-index.js';
import type { PostgresDatabase } from '../src/database.js';
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

const ids = (page: { items: { conversationId: string }[] }) => page.items.map((item) => item.conversationId);

describe('PostgresConversationIndex filters and pages', () => {
  it('gives no nextPageToken on a last page that is exactly full', async () => {
    const conversations = await index();
    for (const id of ['a', 'b', 'c']) await conversations.upsert({ conversationId: id });
    const page = await conversations.search({ limit: 3 });
    expect(ids(page)).toHaveLength(3);
    expect(page.nextPageToken).toBeUndefined();
    expect((await conversations.search({ limit: 2 })).nextPageToken).toBeDefined();
  });

  it('finds an id of 32 hex digits by its hyphenated form, zeros included, and a title with other filters', async () => {
    const conversations = await index();
    const hex = '0123456789abcdef0123456789abcdef';
    await conversations.upsert({ conversationId: hex, status: 'idle', title: 'Zero' });
    await conversations.upsert({ conversationId: 'other', status: 'idle', title: 'Deploy the site' });
    await conversations.upsert({ conversationId: 'done', status: 'finished', title: 'Deploy again' });
    expect(ids(await conversations.search({ textContains: '01234567-89ab-cdef-0123' }))).toEqual([hex]);
    expect(ids(await conversations.search({ status: 'idle', textContains: 'deploy' }))).toEqual(['other']);
    expect(await conversations.count({ status: ['idle', 'finished'], textContains: 'DEPLOY' })).toBe(2);
  });

  it('keeps the conversations updated in [updatedAfter, updatedBefore)', async () => {
    const conversations = await index();
    const at = (second: number) => `2026-01-01T00:00:0${second}.000000Z`;
    for (const second of [1, 2, 3, 4])
      await conversations.upsert({ conversationId: `s${second}`, updatedAt: at(second) });
    expect(ids(await conversations.search({ updatedBefore: at(3) }))).toEqual(['s2', 's1']);
    expect(ids(await conversations.search({ updatedAfter: at(2), updatedBefore: at(4) }))).toEqual(['s3', 's2']);
    expect(await conversations.count({ status: 'idle', updatedAfter: at(2), updatedBefore: at(4) })).toBe(2);
  });
});
