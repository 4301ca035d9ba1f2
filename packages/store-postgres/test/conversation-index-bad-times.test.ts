import { afterEach, describe, expect, it } from 'vitest';
import { PostgresConversationIndex } from '../src/conversations/postgres-conversation-index.js';
import type { PostgresDatabase } from '../src/database.js';
import { InvalidPostgresOptionsError } from '../src/errors/invalid-postgres-options-error.js';
import { freshTables } from './helpers/shared-database.js';

// A time PostgreSQL cannot read (a forged page token, a filter or `after` from a query string) is a bad option of
// the search, named as such, not a raw data exception (SQLSTATE 22007/22008) of the database.

let database: PostgresDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('PostgresConversationIndex.search with times it cannot read', () => {
  it('names the option whose time is not one, and pages on with the times it issued', async () => {
    database = await freshTables();
    const conversations = new PostgresConversationIndex(database);
    for (const id of ['a', 'b', 'c']) {
      await conversations.upsert({ conversationId: id, updatedAt: '2026-01-01T00:00:00.000000Z' });
    }
    const cases: [Parameters<PostgresConversationIndex['search']>[0], string][] = [
      [{ pageToken: token(['not a time', 'a']) }, 'pageToken'],
      [{ pageToken: token(['2026-13-45T00:00:00Z', 'a']) }, 'pageToken'],
      [{ updatedAfter: 'yesterday-ish' }, 'updatedAfter'],
      [{ updatedBefore: '2026-02-30T00:00:00Z' }, 'updatedBefore'],
      [{ after: { at: 'soon', conversationId: 'a' } }, 'after.at'],
      [{ updatedAfter: '2026-01-01T00:00:00Z', after: { at: '', conversationId: 'a' } }, 'after.at'],
    ];
    for (const [search, option] of cases) {
      const error = await conversations.search(search).catch((caught: unknown) => caught);
      expect(error, option).toBeInstanceOf(InvalidPostgresOptionsError);
      expect(error, option).toMatchObject({ option });
    }
    await expect(conversations.count({ updatedBefore: 'never' })).rejects.toMatchObject({ option: 'updatedBefore' });
    await expect(
      conversations.upsert({ conversationId: 'd', createdAt: '2026-01-01T00:00:00Z', updatedAt: 'later' }),
    ).rejects.toMatchObject({ code: 'invalid_postgres_options', option: 'updatedAt' });
    expect(await conversations.get('d')).toBeUndefined();
    // Ties on the time are paged by id, with the tokens the index issued.
    const first = await conversations.search({ limit: 2, order: 'updated_asc' });
    expect(first.items.map((item) => item.conversationId)).toEqual(['a', 'b']);
    const second = await conversations.search({ limit: 2, order: 'updated_asc', pageToken: first.nextPageToken });
    expect(second).toEqual({ items: [expect.objectContaining({ conversationId: 'c' })] });
  });
});
