import { StoreError } from '@x/store';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PostgresConversationIndex } from '../src/conversations/postgres-conversation-index.js';
import { connectPostgres, type PostgresDatabase } from '../src/database.js';
import { InvalidPostgresOptionsError } from '../src/errors/invalid-postgres-options-error.js';
import { PostgresStoreError } from '../src/errors.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { freshTables } from './helpers/shared-database.js';

// Every option this package checks the range of is refused with its own typed error (of the package's base, so of
// `StoreError` too), naming the option: never a plain `RangeError`, which a caller could not tell from a bug.

const open: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

async function database(): Promise<PostgresDatabase> {
  const connected = await freshTables();
  open.push(connected);
  return connected;
}

/** What `run` threw or rejected with, for a check of its type and fields. */
async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

function expectOptionError(error: unknown, option: string): void {
  expect(error).toBeInstanceOf(InvalidPostgresOptionsError);
  expect(error).toBeInstanceOf(PostgresStoreError);
  expect(StoreError.isInstance(error)).toBe(true);
  expect(InvalidPostgresOptionsError.isInstance(error)).toBe(true);
  expect(error).not.toBeInstanceOf(RangeError);
  expect(error).toMatchObject({ name: 'InvalidPostgresOptionsError', code: 'invalid_postgres_options', option });
  expect((error as Error).message).toContain(`'${option}'`);
}

describe('option errors of @x/store-postgres', () => {
  it('connectPostgres: a tablePrefix that is not lower-case letters, digits and _', async () => {
    const url = inject('postgresUrl');
    for (const tablePrefix of ['Upper_', 'with-dash_', '1digit_', 'x'.repeat(32)]) {
      expectOptionError(await caught(() => connectPostgres({ url, tablePrefix })), 'tablePrefix');
    }
  });

  it('PostgresLeases: a ttlMs under 100 or not whole, and an expired() limit out of 1…10000', async () => {
    const connected = await database();
    for (const ttlMs of [99, 100.5, Number.NaN]) {
      expectOptionError(await caught(() => new PostgresLeases(connected, { ttlMs })), 'ttlMs');
    }
    const leases = new PostgresLeases(connected);
    for (const limit of [0, 10_001, 1.5]) expectOptionError(await caught(() => leases.expired({ limit })), 'limit');
  });

  it('PostgresConversationIndex.search: a limit out of 1…1000, an unknown order, a page token it did not issue', async () => {
    const conversations = new PostgresConversationIndex(await database());
    for (const limit of [0, 1001, 2.5]) {
      expectOptionError(await caught(() => conversations.search({ limit })), 'limit');
    }
    const order = 'sideways' as unknown as 'updated_desc';
    expectOptionError(await caught(() => conversations.search({ order })), 'order');
    expectOptionError(await caught(() => conversations.search({ pageToken: 'garbage' })), 'pageToken');
  });
});
