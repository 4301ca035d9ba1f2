// A released lease is no longer its holder's: its row stays until the next owner takes it, so the database alone
// would still answer "held". `assertHeld` refuses from the release on.
import { LeaseLostError } from '@x/store';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});

describe('a released PostgreSQL lease', () => {
  it('refuses assertHeld from the release on; the next owner takes it at once', async () => {
    const test = await createTestDatabase(inject('postgresUrl'));
    databases.push(test);
    const database = await test.connect();
    const lease = await new PostgresLeases(database, { owner: 'replica-a' }).acquire('conversation:released');
    await lease.assertHeld();
    await lease.release();
    await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    const next = await new PostgresLeases(database, { owner: 'replica-b' }).acquire('conversation:released');
    expect([next.generation, next.previous]).toEqual([lease.generation + 1, 'released']);
    await next.release();
  });
});
