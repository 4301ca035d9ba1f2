// A holder past its deadline whose database is unreachable: the lease is lost by its own clock, so `assertHeld` says
// so (`LeaseLostError`) rather than reporting the connection failure of a query it need not send.
import { LeaseLostError } from '@x/store';
import { createManualClock } from '@x/store/testing';
import type { QueryResultRow } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase, QueryOptions } from '../src/database.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { freshTables } from './helpers/shared-database.js';

const TTL = 600_010;
const connections: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of connections.splice(0)) await database.close();
});

/** `database`, refusing every query with a connection failure while `cut.on`. */
function cuttable(database: PostgresDatabase): { database: PostgresDatabase; cut: { on: boolean } } {
  const cut = { on: false };
  return {
    cut,
    database: {
      ...database,
      query<Row extends QueryResultRow>(text: string, values?: unknown[], options?: QueryOptions) {
        if (cut.on) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
        return database.query<Row>(text, values, options);
      },
    },
  };
}

describe('a PostgreSQL lease past its deadline with the database unreachable', () => {
  it('refuses assertHeld with LeaseLostError, not the connection failure', async () => {
    const database = await freshTables();
    connections.push(database);
    const { database: reachable, cut } = cuttable(database);
    const manual = createManualClock();
    // The process is stopped past its deadline: its clock moves on, no timer of it runs.
    let stopped = 0;
    const clock = { ...manual, now: () => manual.now() + stopped };
    const lease = await new PostgresLeases(reachable, { owner: 'a', ttlMs: TTL, clock }).acquire('k');
    cut.on = true;
    stopped = TTL;
    const refused = await lease.assertHeld().catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(LeaseLostError);
    expect(refused).toMatchObject({ leaseKey: 'k', generation: 1 });
    expect(lease.signal.aborted).toBe(true);
  });
});
