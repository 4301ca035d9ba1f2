import { LeaseLostError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import type { Client } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { loadPg } from '../src/internal/load-pg.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { freshTables, sharedDatabaseUrl } from './helpers/shared-database.js';

// Real faults on a real server: a fenced append is held on the lease row's lock by another transaction (a takeover
// in progress, or any lock), so its statement is in flight when that transaction commits or when its backend is
// killed with pg_terminate_backend. Nothing here mocks the driver or the server.

const cleanups: (() => Promise<unknown>)[] = [];
const others: Client[] = [];
afterEach(async () => {
  // The other connection first: a transaction it still holds open (a failed test) would block the lease's release.
  for (const other of others.splice(0)) await other.end();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<{ database: PostgresDatabase; other: Client }> {
  const database = await freshTables();
  cleanups.push(() => database.close());
  const pg = await loadPg();
  const other = new pg.Client({ connectionString: await sharedDatabaseUrl() });
  await other.connect();
  others.push(other);
  return { database, other };
}

/**
 * The pid of a backend (not `except`) whose INSERT into `table` waits on a lock, once there is one (polled, no fixed
 * sleep).
 */
async function waitingInsert(other: Client, table: string, except = -1): Promise<number> {
  for (;;) {
    // Statistics are a snapshot per transaction: `other` may be in one, so take a fresh one each time.
    await other.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await other.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1 AND pid <> $2`,
      [`%INSERT INTO ${table}%`, except],
    );
    if (rows[0] !== undefined) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function storedIds(database: PostgresDatabase, logId: string): Promise<string[]> {
  const rows = await database.query<{ event_id: string }>(
    `SELECT event_id FROM ${database.tablePrefix}events WHERE log_id = $1 ORDER BY idx`,
    [logId],
  );
  return rows.map((row) => row.event_id);
}

describe('a fenced append in flight', () => {
  it('is refused whole when a takeover commits while it waits on the lease row: nothing of it is written', async () => {
    const { database, other } = await setup();
    const lease = await new PostgresLeases(database, { ttlMs: 60_000 }).acquire('run');
    cleanups.push(() => lease.release());
    const log = await PostgresEventLog.open(database, { logId: 'fenced', fence: lease });
    await log.append(contractMessageEvent('before'));
    // A takeover, held open: the new generation is written but not committed while the append starts.
    await other.query('BEGIN');
    await other.query(`UPDATE ${database.tablePrefix}leases SET generation = generation + 1 WHERE lease_key = 'run'`);
    const append = log.appendMany([contractMessageEvent('stale 1'), contractMessageEvent('stale 2')]);
    const settled = append.catch((caught: unknown) => caught);
    await Promise.race([waitingInsert(other, `${database.tablePrefix}events`), settled]);
    await other.query('COMMIT');
    expect(await settled).toBeInstanceOf(LeaseLostError);
    expect(await storedIds(database, 'fenced')).toHaveLength(1);
  });

  it('is retried after pg_terminate_backend kills its backend mid-statement, and is in the log exactly once', async () => {
    const { database, other } = await setup();
    const lease = await new PostgresLeases(database, { ttlMs: 60_000 }).acquire('run');
    cleanups.push(() => lease.release());
    const log = await PostgresEventLog.open(database, { logId: 'killed', fence: lease });
    await log.append(contractMessageEvent('before'));
    await other.query('BEGIN');
    await other.query(`SELECT 1 FROM ${database.tablePrefix}leases WHERE lease_key = 'run' FOR UPDATE`);
    const event = contractMessageEvent('in flight');
    const append = log.append(event);
    const pid = await waitingInsert(other, `${database.tablePrefix}events`);
    const terminated = await other.query<{ done: boolean }>('SELECT pg_terminate_backend($1) AS done', [pid]);
    expect(terminated.rows[0]!.done).toBe(true);
    // The retry, on a new connection, waits on the same lock until the other transaction ends (the append's own
    // failure, if it gave up, ends the wait).
    await Promise.race([waitingInsert(other, `${database.tablePrefix}events`, pid), append]);
    await other.query('COMMIT');
    expect(await append).toBe(1);
    const ids = await storedIds(database, 'killed');
    expect(ids).toEqual([ids[0], event.id]);
    const reopened = await PostgresEventLog.open(database, { logId: 'killed' });
    expect(reopened.length).toBe(2);
    expect(await log.append(contractMessageEvent('after'))).toBe(2);
  });
});
