import { describeLeasesContract, type LeasesContractHooks } from '@x/store/testing';
import type { QueryResultRow } from 'pg';
import type { PostgresDatabase, QueryOptions } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { freshTables } from './helpers/shared-database.js';

/** `database`, with every lease upsert, renewal and check awaiting its hook before it is sent. */
function withHooks(database: PostgresDatabase, hooks: LeasesContractHooks): PostgresDatabase {
  return {
    ...database,
    async query<Row extends QueryResultRow>(text: string, values?: unknown[], options?: QueryOptions) {
      if (/^WITH old AS \(SELECT expires_at FROM \S+leases/.test(text)) await hooks.beforeTake?.();
      if (/^UPDATE \S+leases SET expires_at = clock_timestamp\(\)/.test(text)) await hooks.beforeRenewal?.();
      if (/^SELECT 1 FROM \S+leases WHERE lease_key = \$1 AND generation = \$2$/.test(text))
        await hooks.beforeCheck?.();
      return database.query<Row>(text, values, options);
    },
  };
}

// Expiry is the database's clock, which no test moves: the takeover test waits a real ttl (200 ms) for it. Every
// other deadline is the holder's own clock, a manual one.
describeLeasesContract('PostgreSQL', async () => {
  const database = await freshTables();
  return {
    leases: ({ hooks, ...options }) =>
      new PostgresLeases(hooks === undefined ? database : withHooks(database, hooks), options),
    openLog: () => PostgresEventLog.open(database, { logId: 'conversation-1', pollIntervalMs: 50 }),
    cleanup: () => database.close(),
  };
});
