import { AppendConflictError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { InvalidPostgresOptionsError } from '../src/errors/invalid-postgres-options-error.js';
import { PostgresEventLog as EventLog } from '../src/event-log/postgres-event-log.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});

/** A fresh database; each `open()` is another instance on the same log. */
async function freshDatabase(): Promise<PostgresDatabase> {
  const database = await createTestDatabase(inject('postgresUrl'));
  databases.push(database);
  return database.connect();
}
const open = (database: PostgresDatabase) => EventLog.open(database, { logId: 'expected-index' });

// `expectedIndex` is optimistic concurrency: an append whose caller's view is stale must fail with
// AppendConflictError and write nothing, never land at the next free index instead.

async function conflict(promise: Promise<unknown>): Promise<AppendConflictError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(AppendConflictError.isInstance(caught)).toBe(true);
  return caught as AppendConflictError;
}

async function texts(log: EventLog): Promise<string[]> {
  await log.refresh();
  const out: string[] = [];
  for (let index = 0; index < log.length; index++) {
    const event = (await log.get(index)) as { llm_message: { content: { text: string }[] } };
    out.push(event.llm_message.content[0]!.text);
  }
  return out;
}

describe('PostgresEventLog appends with expectedIndex', () => {
  it('refuses an index already taken in the same instance', async () => {
    const log = await open(await freshDatabase());
    expect(await log.append(contractMessageEvent('a'), { expectedIndex: 0 })).toBe(0);
    const error = await conflict(log.append(contractMessageEvent('stale'), { expectedIndex: 0 }));
    expect(error).toMatchObject({ expectedIndex: 0, actualIndex: 1 });
    expect(log.length).toBe(1);
    expect(await log.append(contractMessageEvent('b'), { expectedIndex: 1 })).toBe(1);
    expect(await texts(log)).toEqual(['a', 'b']);
  });

  it('refuses an index another instance took, though this one had not seen it', async () => {
    const store = await freshDatabase();
    const mine = await open(store);
    const theirs = await open(store);
    expect(await theirs.append(contractMessageEvent('theirs'))).toBe(0);
    const error = await conflict(mine.append(contractMessageEvent('mine'), { expectedIndex: 0 }));
    expect(error).toMatchObject({ expectedIndex: 0, actualIndex: 1 });
    // Again, now that this instance met a rival (PostgreSQL then queues appends on the log's lock).
    expect(await theirs.append(contractMessageEvent('theirs again'))).toBe(1);
    const again = await conflict(mine.append(contractMessageEvent('mine again'), { expectedIndex: 1 }));
    expect(again).toMatchObject({ expectedIndex: 1, actualIndex: 2 });
    expect(await texts(await open(store))).toEqual(['theirs', 'theirs again']);
  });

  it('refuses an index past the end, and appends there once the log reaches it', async () => {
    const store = await freshDatabase();
    const mine = await open(store);
    const error = await conflict(mine.append(contractMessageEvent('early'), { expectedIndex: 2 }));
    expect(error).toMatchObject({ expectedIndex: 2, actualIndex: 0 });
    expect(mine.length).toBe(0);
    const theirs = await open(store);
    await theirs.append(contractMessageEvent('x'));
    await theirs.append(contractMessageEvent('y'));
    // The caller knows of appends this instance has not read yet: it finds them and appends after them.
    expect(await mine.append(contractMessageEvent('z'), { expectedIndex: 2 })).toBe(2);
    await conflict(mine.append(contractMessageEvent('far'), { expectedIndex: 5 }));
    expect(await texts(await open(store))).toEqual(['x', 'y', 'z']);
  });

  it('rejects a negative or fractional expectedIndex', async () => {
    const log = await open(await freshDatabase());
    for (const expectedIndex of [-1, 0.5]) {
      const error = await log.append(contractMessageEvent('a'), { expectedIndex }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidPostgresOptionsError);
      expect(error).toMatchObject({ code: 'invalid_postgres_options', option: 'expectedIndex' });
    }
  });
});
