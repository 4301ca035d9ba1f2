import { LeaseLostError, writeUnderLease } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { freshTablesShared } from './helpers/shared-database.js';

// A run's owner writes base_state.json with its lease as the write's fence: PostgreSQL checks the generation in the
// upsert itself, so an owner paused after its own checks, across a takeover by another replica, cannot overwrite the
// new owner's file. The takeover is real: the row expires (moved into the past, so nothing waits for a ttl) and the
// other replica acquires it through its own connection.

const connections: PostgresDatabase[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
});

describe('a PostgreSQL file store write fenced by a lease', () => {
  it('is refused with LeaseLostError, writing nothing, once another replica took the lease over', async () => {
    const [databaseA, databaseB] = (await freshTablesShared(2)) as [PostgresDatabase, PostgresDatabase];
    connections.push(databaseA, databaseB);
    const storeA = createPostgresFileStore(databaseA);
    const storeB = createPostgresFileStore(databaseB);
    expect(storeA.fencesWrites).toBe(true);
    const stale = await new PostgresLeases(databaseA, { owner: 'a', ttlMs: 60_000 }).acquire('conversations/c1');
    await writeUnderLease(storeA, 'conversations/c1/base_state.json', '{"owner":"a"}', stale);
    expect(await storeB.read('conversations/c1/base_state.json')).toBe('{"owner":"a"}');

    // The stale owner's own checks pass; then it pauses, and the other replica takes the conversation over.
    await stale.assertHeld();
    await databaseB.query(
      `UPDATE ${databaseB.tablePrefix}leases SET expires_at = clock_timestamp() - interval '1 second' WHERE lease_key = $1`,
      ['conversations/c1'],
    );
    const owner = await new PostgresLeases(databaseB, { owner: 'b', ttlMs: 60_000 }).acquire('conversations/c1');
    expect(owner).toMatchObject({ generation: 2, previous: 'expired' });
    await writeUnderLease(storeB, 'conversations/c1/base_state.json', '{"owner":"b"}', owner);

    // Resumed, it writes with the fence it holds (as writeUnderLease hands it): refused in the same statement.
    const refused = await storeA
      .write('conversations/c1/base_state.json', '{"owner":"a"}', { fence: stale })
      .catch((caught: unknown) => caught);
    expect(LeaseLostError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ leaseKey: 'conversations/c1', generation: 1 });
    expect(await storeB.read('conversations/c1/base_state.json')).toBe('{"owner":"b"}');
    // A file the stale owner never wrote stays absent too (the fenced upsert inserts nothing either).
    await expect(
      storeA.write('conversations/c1/x_budget.json', '{}', { fence: { key: 'conversations/c1', generation: 1 } }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await storeB.exists('conversations/c1/x_budget.json')).toBe(false);

    await stale.release();
    await owner.release();
  });
});
