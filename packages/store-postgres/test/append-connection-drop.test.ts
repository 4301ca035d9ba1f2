import { DuplicateEventIdError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import type { QueryResultRow } from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { PostgresDatabase, QueryOptions } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';

// The connection can drop after the server committed an INSERT but before the reply arrived. The append must
// then recognise its own events in the log (all of them, in order) and resolve with their indices, not report
// them as duplicates of themselves; a drop before the commit is retried; a real duplicate stays an error.

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});

type Drop = 'after-commit' | 'before-commit' | undefined;

/** The database, with the next INSERT failing as a dropped connection does, before or after it ran. */
async function droppingDatabase(): Promise<{
  database: PostgresDatabase;
  dropNext(when: Drop): void;
  dropped(): number;
}> {
  const testDatabase = await createTestDatabase(inject('postgresUrl'));
  databases.push(testDatabase);
  const database = await testDatabase.connect();
  let drop: Drop;
  let dropped = 0;
  const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
  return {
    dropped: () => dropped,
    dropNext: (when) => {
      drop = when;
    },
    database: {
      ...database,
      async query<Row extends QueryResultRow>(text: string, values?: unknown[], options?: QueryOptions) {
        const when = /\bINSERT INTO\b/i.test(text) ? drop : undefined;
        if (when !== undefined) {
          drop = undefined;
          dropped++;
        }
        if (when === 'before-commit') throw lost();
        const rows = await database.query<Row>(text, values, options);
        if (when === 'after-commit') throw lost();
        return rows;
      },
    },
  };
}

async function ids(log: PostgresEventLog): Promise<string[]> {
  await log.refresh();
  const out: string[] = [];
  for (let index = 0; index < log.length; index++) out.push((await log.get(index)).id);
  return out;
}

describe('an append whose connection dropped', () => {
  it('after the commit resolves with its index, and the event is in the log once', async () => {
    const { database, dropNext, dropped } = await droppingDatabase();
    const log = await PostgresEventLog.open(database, { logId: 'drop-after' });
    const first = contractMessageEvent('first');
    expect(await log.append(first)).toBe(0);
    const event = contractMessageEvent('committed, then the connection dropped');
    dropNext('after-commit');
    expect(await log.append(event)).toBe(1);
    expect(dropped()).toBe(1);
    expect(await ids(await PostgresEventLog.open(database, { logId: 'drop-after' }))).toEqual([first.id, event.id]);
  });

  it('after the commit of a batch resolves with all its indices', async () => {
    const { database, dropNext, dropped } = await droppingDatabase();
    const log = await PostgresEventLog.open(database, { logId: 'drop-batch' });
    const batch = [contractMessageEvent('a'), contractMessageEvent('b'), contractMessageEvent('c')];
    dropNext('after-commit');
    expect(await log.appendMany(batch)).toEqual([0, 1, 2]);
    expect(dropped()).toBe(1);
    expect(await ids(await PostgresEventLog.open(database, { logId: 'drop-batch' }))).toEqual(
      batch.map((event) => event.id),
    );
  });

  it('before the commit is written again, once', async () => {
    const { database, dropNext, dropped } = await droppingDatabase();
    const log = await PostgresEventLog.open(database, { logId: 'drop-before' });
    const event = contractMessageEvent('never reached the server');
    dropNext('before-commit');
    expect(await log.append(event)).toBe(0);
    expect(dropped()).toBe(1);
    expect(await ids(await PostgresEventLog.open(database, { logId: 'drop-before' }))).toEqual([event.id]);
  });

  it('a real duplicate, appended by another instance, is still refused', async () => {
    const { database } = await droppingDatabase();
    const theirs = await PostgresEventLog.open(database, { logId: 'duplicate' });
    const mine = await PostgresEventLog.open(database, { logId: 'duplicate' });
    const event = contractMessageEvent('once');
    expect(await theirs.append(event)).toBe(0);
    const error = await mine.append(event).catch((caught: unknown) => caught);
    expect(DuplicateEventIdError.isInstance(error)).toBe(true);
    expect(await ids(await PostgresEventLog.open(database, { logId: 'duplicate' }))).toEqual([event.id]);
  });
});
