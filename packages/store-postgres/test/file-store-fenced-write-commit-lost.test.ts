import { LeaseLostError } from '@x/store';
import type { Client } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresDatabase } from '../src/database.js';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { loadPg } from '../src/internal/load-pg.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { type PostgresServer, startPostgresServer } from '../src/testing/postgres-server.js';

// A fenced write whose commit landed but whose answer was lost: the writer's session commits synchronously to a
// standby that never comes (synchronous_standby_names names none that exists), so its COMMIT is durable locally and
// then waits; pg_terminate_backend ends that wait, and the client sees a lost connection though the row is written.
// Another replica then takes the lease over before the client retries. A server of its own: the standby setting is
// server-wide (only the writer's connections ask for synchronous commits, the others commit without waiting).

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function client(url: string): Promise<Client> {
  const pg = await loadPg();
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  cleanups.push(() => connection.end());
  return connection;
}

/**
 * The pid of a backend that waits on `event` (of `type`), once there is one (polled, no fixed sleep); undefined
 * once `stop()` says to look no more.
 */
async function waiting(
  other: Client,
  type: string,
  event: string | undefined,
  stop: () => boolean = () => false,
): Promise<number | undefined> {
  while (!stop()) {
    await other.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await other.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = $1 AND ($2::text IS NULL OR wait_event = $2)
         AND pid <> pg_backend_pid()`,
      [type, event ?? null],
    );
    if (rows[0] !== undefined) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

describe('a fenced PostgreSQL file write whose connection is lost after its commit', () => {
  it('reports the write it made, not LeaseLostError, when another owner took the lease over before the retry', async () => {
    const server: PostgresServer = await startPostgresServer();
    cleanups.push(() => server.stop());
    const admin = await client(server.url);
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = 'x_no_such_standby'`);
    await admin.query('SELECT pg_reload_conf()');
    const setup: PostgresDatabase = await connectPostgres({ url: server.url });
    cleanups.push(() => setup.close());
    const lease = await new PostgresLeases(setup, { owner: 'a', ttlMs: 600_000 }).acquire('conversations/c1');
    // The writer's connections alone commit synchronously (waiting for the standby).
    const writer = await connectPostgres({
      url: `${server.url}?options=${encodeURIComponent('-c synchronous_commit=on')}`,
      migrate: false,
    });
    cleanups.push(() => writer.close());
    const store = createPostgresFileStore(writer);

    let settled = false;
    const write = store
      .write('conversations/c1/base_state.json', '{"owner":"a"}', { fence: lease })
      .then(() => 'written')
      .catch((caught: unknown) => caught)
      .finally(() => {
        settled = true;
      });
    const pid = await waiting(admin, 'IPC', 'SyncRep');
    // The takeover queues on the lease row the write still holds, and gets it once the backend is gone.
    const takeover = await client(server.url);
    await takeover.query('BEGIN');
    const bumped = takeover.query(
      `UPDATE ${setup.tablePrefix}leases SET generation = generation + 1, owner = 'b' WHERE lease_key = $1`,
      ['conversations/c1'],
    );
    await waiting(admin, 'Lock', undefined);
    expect((await admin.query('SELECT pg_terminate_backend($1) AS done', [pid])).rows[0].done).toBe(true);
    await bumped;
    // A retry that writes again queues behind the takeover, and is refused once it commits.
    await waiting(admin, 'Lock', undefined, () => settled);
    await takeover.query('COMMIT');
    // No commit waits for the standby from here on (a refused retry's row lock would have it wait forever).
    await admin.query('ALTER SYSTEM RESET synchronous_standby_names');
    await admin.query('SELECT pg_reload_conf()');

    const outcome = await write;
    expect(LeaseLostError.isInstance(outcome)).toBe(false);
    expect(outcome).toBe('written');
    expect(await createPostgresFileStore(setup).read('conversations/c1/base_state.json')).toBe('{"owner":"a"}');
    // A write after the takeover is refused as ever (through a connection that does not wait for the standby).
    await expect(
      createPostgresFileStore(setup).write('conversations/c1/base_state.json', '{"owner":"stale"}', { fence: lease }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await lease.release();
  });
});
