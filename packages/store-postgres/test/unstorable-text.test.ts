import { parseEventJson, serializeEvent } from '@x/events';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresConversationIndex } from '../src/conversations/postgres-conversation-index.js';
import type { PostgresDatabase } from '../src/database.js';
import { InvalidPostgresOptionsError } from '../src/errors/invalid-postgres-options-error.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { freshTables } from './helpers/shared-database.js';

// PostgreSQL text cannot hold U+0000 (the server refuses the statement with SQLSTATE 22021), and node-postgres
// encodes a lone UTF-16 surrogate as U+FFFD, so two keys differing only in their lone surrogates name one row. A key
// (a log id, a conversation id, a lease key) that cannot be stored exactly is refused by name with
// InvalidPostgresOptionsError before any statement; an event's text keeps every character, written as JSON escapes.

let database: PostgresDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const unstorable = ['a\u0000b', 'x\ud800', 'x\udc00y'];

function optionError(error: unknown, option: string): void {
  expect(error).toBeInstanceOf(InvalidPostgresOptionsError);
  expect(error).toMatchObject({ code: 'invalid_postgres_options', option });
}

describe('text PostgreSQL cannot store exactly', () => {
  it('refuses a log id with a NUL or a lone surrogate by name, so two such ids never share one log', async () => {
    database = await freshTables();
    for (const logId of unstorable) {
      optionError(await PostgresEventLog.open(database, { logId }).catch((caught: unknown) => caught), 'logId');
    }
    const log = await PostgresEventLog.open(database, { logId: 'emoji 😀 é' });
    await log.append(contractMessageEvent('kept'));
    expect((await PostgresEventLog.open(database, { logId: 'emoji 😀 é' })).length).toBe(1);
  });

  it('stores an event whose JSON text holds a raw lone surrogate as its escape: read back, it is the same event', async () => {
    database = await freshTables();
    const text = (id: number, body: string) =>
      `{"id":"raw-${id}","timestamp":"2026-11-21T10:00:00.000000","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"${body}"}]},"kind":"MessageEvent","n":1.0}`;
    const events = ['a\ud800b', '\udc00', 'nul \\u0000 and \\ud83d\\ude00 😀'].map((body, id) =>
      parseEventJson(text(id, body)),
    );
    const log = await PostgresEventLog.open(database, { logId: 'surrogates' });
    await log.appendMany(events);
    const read = await (await PostgresEventLog.open(database, { logId: 'surrogates' })).range(0);
    expect(read).toEqual(events);
    // Only the surrogates were escaped: the rest of the text (`1.0`) is as it was.
    expect(serializeEvent(read[0]!)).toBe(text(0, 'a\\ud800b'));
    expect(serializeEvent(read[2]!)).toBe(serializeEvent(events[2]!));
  });

  it('refuses conversation ids and lease keys that cannot be stored exactly, and keeps a title with a NUL', async () => {
    database = await freshTables();
    const conversations = new PostgresConversationIndex(database);
    for (const id of unstorable) {
      optionError(
        await conversations.upsert({ conversationId: id }).catch((caught: unknown) => caught),
        'conversationId',
      );
      optionError(await conversations.get(id).catch((caught: unknown) => caught), 'conversationId');
      optionError(
        await conversations
          .upsert({ conversationId: 'fork', forkedFrom: { conversationId: id, eventId: null } })
          .catch((caught: unknown) => caught),
        'forkedFrom.conversationId',
      );
    }
    optionError(
      await conversations.upsert({ conversationId: 'c', status: 'a\u0000' }).catch((caught: unknown) => caught),
      'status',
    );
    // A title is display text: a NUL is stored as U+FFFD (as node-postgres stores a lone surrogate), and found so.
    await conversations.upsert({ conversationId: 'titled', title: 'before\u0000after' });
    expect(await conversations.get('titled')).toMatchObject({ title: 'before\ufffdafter' });
    expect(
      (await conversations.search({ titleContains: 'e\u0000a' })).items.map((item) => item.conversationId),
    ).toEqual(['titled']);
    const leases = new PostgresLeases(database, { ttlMs: 1000 });
    for (const key of unstorable) optionError(await leases.acquire(key).catch((caught: unknown) => caught), 'key');
  });
});
