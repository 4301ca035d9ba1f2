/**
 * A child process for the multi-process and crash tests: appends events to the EventLog in a local
 * store and prints `ack <index> <id>` once each append resolves. Run with `node --import tsx`.
 *
 * argv: <root> <label> <count> (count `loop` appends until killed) [durability: fsync | none] [batch: events
 * per `appendMany`, default 1 (one `append` each)] [layout: files | segment | segment-batched (`eventFiles:
 * 'batched'`)]
 */
import { randomUUID } from 'node:crypto';
import { parseEvent } from '@x/events';
import { EventLog } from '../../src/event-log.js';
import { createLocalFileStore } from '../../src/local-file-store.js';

const [root, label = 'worker', countArgument = '10', durability = 'none', batchArgument = '1', layout = 'files'] =
  process.argv.slice(2);
const batch = Number(batchArgument);
if (root === undefined) throw new Error('usage: append-worker <root> <label> <count|loop> [fsync|none]');
const count = countArgument === 'loop' ? Number.POSITIVE_INFINITY : Number(countArgument);

const store = createLocalFileStore({ root, durability: durability === 'fsync' ? 'fsync' : 'none' });
const log = await EventLog.open(store, {
  layout: layout.startsWith('segment') ? 'segment' : 'files',
  ...(layout === 'segment-batched' && { eventFiles: 'batched' as const }),
});
process.stdout.write('ready\n');
function messageEvent(i: number) {
  return parseEvent({
    id: randomUUID(),
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'user',
    llm_message: {
      role: 'user',
      content: [{ type: 'text', text: `${label} ${i} ${'x'.repeat(i % 7 === 0 ? 4096 : 64)}` }],
    },
    kind: 'MessageEvent',
  });
}

for (let i = 0; i < count; i += batch) {
  const events = Array.from({ length: batch }, (_, k) => messageEvent(i + k));
  const indices = batch === 1 ? [await log.append(events[0]!)] : await log.appendMany(events);
  for (const [k, index] of indices.entries()) process.stdout.write(`ack ${index} ${events[k]!.id}\n`);
}
