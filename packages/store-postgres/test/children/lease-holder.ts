/**
 * A child process that takes a lease and appends under it when told. stdin: `append <text>` → stdout
 * `ack <index>` or `refused <error code>`. Prints `ready <generation>` once it holds the lease.
 *
 * argv: <database url> <lease key> <log id> <ttl ms> [wait ms]
 */
import { createInterface } from 'node:readline';
import { StoreError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import { connectPostgres } from '../../src/database.js';
import { PostgresEventLog } from '../../src/event-log/postgres-event-log.js';
import { PostgresLeases } from '../../src/lease/postgres-leases.js';

const [url, key, logId, ttl, waitMs] = process.argv.slice(2);
if (url === undefined || key === undefined || logId === undefined)
  throw new Error('usage: lease-holder <url> <key> <log> <ttl>');
const database = await connectPostgres({ url, maxConnections: 2, migrate: false });
const lease = await new PostgresLeases(database, {
  owner: `holder-${process.pid}`,
  ttlMs: Number(ttl ?? 1000),
}).acquire(key, { waitMs: Number(waitMs ?? 0) });
const log = await PostgresEventLog.open(database, { logId, fence: lease });
process.stdout.write(`ready ${lease.generation} ${lease.previous}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...rest] = line.split(' ');
  if (command !== 'append') continue;
  try {
    process.stdout.write(`ack ${await log.append(contractMessageEvent(rest.join(' ')))}\n`);
  } catch (error) {
    process.stdout.write(`refused ${StoreError.isInstance(error) ? error.code : String(error)}\n`);
  }
}
await database.close();
