/**
 * A child process for the multi-process tests: appends `count` events to one PostgreSQL log and
 * prints `ack <index> <id>` after each append resolves. Run with `node --import tsx`.
 *
 * argv: <database url> <log id> <label> <count>
 */
import { contractMessageEvent } from '@x/store/testing';
import { connectPostgres } from '../../src/database.js';
import { PostgresEventLog } from '../../src/event-log/postgres-event-log.js';

const [url, logId, label = 'worker', countArgument = '10'] = process.argv.slice(2);
if (url === undefined || logId === undefined) throw new Error('usage: append-worker <url> <log id> <label> <count>');
const database = await connectPostgres({ url, maxConnections: 2, migrate: false });
const log = await PostgresEventLog.open(database, { logId });
process.stdout.write('ready\n');
let out = '';
for (let i = 0; i < Number(countArgument); i++) {
  const event = contractMessageEvent(`${label} ${i}`);
  const index = await log.append(event);
  out += `ack ${index} ${event.id}\n`;
  if (out.length > 8192) {
    process.stdout.write(out);
    out = '';
  }
}
process.stdout.write(out);
await database.close();
