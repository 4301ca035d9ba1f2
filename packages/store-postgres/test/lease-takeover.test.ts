import { LeaseLostError } from '@x/store';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';

// A holder whose lease expired and was taken by another owner learns it at its next renewal (not only at its
// next fenced append): renew() is false, its signal aborts with LeaseLostError, assertHeld throws. The expiry is
// made by moving the row's expires_at into the past, so nothing waits for a ttl to pass.

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});

describe('a PostgreSQL lease taken over by another owner', () => {
  it('fails to renew, aborts its signal with LeaseLostError and refuses assertHeld', async () => {
    const testDatabase = await createTestDatabase(inject('postgresUrl'));
    databases.push(testDatabase);
    const database = await testDatabase.connect();
    const a = new PostgresLeases(database, { owner: 'a', ttlMs: 60_000 });
    const lease = await a.acquire('conversation:lost');
    expect(await lease.renew()).toBe(true);

    await database.query(
      `UPDATE ${database.tablePrefix}leases SET expires_at = clock_timestamp() - interval '1 second' WHERE lease_key = $1`,
      ['conversation:lost'],
    );
    expect(await a.expired()).toEqual(['conversation:lost']);
    const taken = await new PostgresLeases(database, { owner: 'b', ttlMs: 60_000 }).acquire('conversation:lost');
    expect(taken).toMatchObject({ generation: 2, previous: 'expired' });

    expect(await lease.renew()).toBe(false);
    expect(lease.signal.aborted).toBe(true);
    expect(LeaseLostError.isInstance(lease.signal.reason)).toBe(true);
    expect(lease.signal.reason).toMatchObject({ leaseKey: 'conversation:lost', generation: 1 });
    expect(LeaseLostError.isInstance(await lease.assertHeld().catch((caught: unknown) => caught))).toBe(true);

    // The loser's release leaves the new owner's lease live, and the new owner still renews.
    await lease.release();
    expect(await a.inspect('conversation:lost')).toEqual({ generation: 2, owner: 'b', live: true });
    expect(await taken.renew()).toBe(true);
    await taken.assertHeld();
    await taken.release();
    expect(await a.inspect('conversation:lost')).toMatchObject({ generation: 2, live: false });
    expect(await a.expired()).toEqual([]);
  });

  it('notices the takeover at its next heartbeat, without being asked', async () => {
    const testDatabase = await createTestDatabase(inject('postgresUrl'));
    databases.push(testDatabase);
    const database = await testDatabase.connect();
    const lease = await new PostgresLeases(database, { owner: 'a', ttlMs: 300 }).acquire('conversation:beat');
    const lost = new Promise<unknown>((resolve) =>
      lease.signal.addEventListener('abort', () => resolve(lease.signal.reason), { once: true }),
    );
    // The takeover itself, as a contender's acquire does it once the row expired.
    await database.query(
      `UPDATE ${database.tablePrefix}leases SET generation = generation + 1, owner = 'b' WHERE lease_key = $1`,
      ['conversation:beat'],
    );
    expect(LeaseLostError.isInstance(await lost)).toBe(true);
  });
});

describe('a PostgreSQL lease whose renewals keep failing', () => {
  it('is lost after a ttl without a renewal, and assertHeld refuses though no one took it over', async () => {
    const testDatabase = await createTestDatabase(inject('postgresUrl'));
    databases.push(testDatabase);
    const database = await testDatabase.connect();
    let cutOff = false;
    // Renewals (UPDATE … SET expires_at) fail as a dropped connection does; other statements go through.
    const flaky = {
      ...database,
      query: ((text: string, values?: unknown[], options?: unknown) => {
        if (cutOff && /^\s*UPDATE\b.*SET expires_at = clock_timestamp\(\)/is.test(text)) {
          return Promise.reject(new Error('Connection terminated unexpectedly'));
        }
        return database.query(text, values, options as never);
      }) as typeof database.query,
    };
    const lease = await new PostgresLeases(flaky, { owner: 'a', ttlMs: 300 }).acquire('conversation:cut');
    const lost = new Promise<void>((resolve) =>
      lease.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    cutOff = true;
    await lost;
    // The row still names generation 1: only the holder's own clock says the lease may be gone.
    expect(await new PostgresLeases(database).inspect('conversation:cut')).toMatchObject({ generation: 1, owner: 'a' });
    expect(LeaseLostError.isInstance(await lease.assertHeld().catch((caught: unknown) => caught))).toBe(true);
  });
});
