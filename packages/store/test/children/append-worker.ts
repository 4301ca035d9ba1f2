/**
 * A child process for the multi-process and crash tests: appends events to the EventLog in a local
 * store and prints `ack <index> <id>` once each append resolves. Run with `node --import tsx`.
 *
 * argv: <root> <label> <count> (count `loop` appends until killed) [durability: fsync | none]
 */
import { randomUUID } from 'node:crypto';
import { parseEvent } from '@x/events';
import { EventLog } from '../../src/event-log.js';
import { createLocalFileStore } from '../../src/local-file-store.js';

const [root, label = 'worker', countArgument = '10', durability = 'none'] = process.argv.slice(2);
if (root === undefined) throw new Error('usage: append-worker <root> <label> <count|loop> [fsync|none]');
const count = countArgument === 'loop' ? Number.POSITIVE_INFINITY : Number(countArgument);

const store = createLocalFileStore({ root, durability: durability === 'fsync' ? 'fsync' : 'none' });
const log = await EventLog.open(store);
process.stdout.write('ready\n');
for (let i = 0; i < count; i++) {
  const event = parseEvent({
    id: randomUUID(),
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'user',
    llm_message: {
      role: 'user',
      content: [{ type: 'text', text: `${label} ${i} ${'x'.repeat(i % 7 === 0 ? 4096 : 64)}` }],
    },
    kind: 'MessageEvent',
  });
  const index = await log.append(event);
  process.stdout.write(`ack ${index} ${event.id}\n`);
}
