/**
 * A child process for the segment layout's crash-point tests: appends batches of events to a segment log in a
 * local store (`durability: 'fsync'`) and prints `ack <index> <id>` once each `appendMany` resolves; it SIGKILLs
 * itself at one point of the append protocol, on the `at`-th time it gets there. Run with `node --import tsx`.
 *
 * argv: <root> <label> <point> <at> <batch>
 * - `derive`: the segment's records are durable, their event files not yet written (the store's
 *   `writeRebuildable` is entered for them);
 * - `derived`: the event files are written, the append has not resolved (nor the segment index been written);
 * - `index`: the segment index is about to be written (its events and their files are all written).
 */
import { randomUUID } from 'node:crypto';
import { parseEvent } from '@x/events';
import { EventLog } from '../../src/event-log.js';
import type { FileStore } from '../../src/file-store.js';
import { createLocalFileStore } from '../../src/local-file-store.js';

const [root, label = 'worker', point = 'derive', atArgument = '1', batchArgument = '1'] = process.argv.slice(2);
if (root === undefined)
  throw new Error('usage: segment-crash-worker <root> <label> <derive|derived|index> <at> <batch>');
const at = Number(atArgument);
const batch = Number(batchArgument);

const local = createLocalFileStore({ root, durability: 'fsync' });
let reached = 0;
const die = () => process.kill(process.pid, 'SIGKILL');
const isIndex = (paths: readonly { path: string }[]) => paths.some(({ path }) => path.endsWith('/segment-index'));
const store: FileStore = {
  ...local,
  async writeRebuildable(files) {
    const index = isIndex(files);
    if (point === (index ? 'index' : 'derive') && ++reached === at) die();
    await local.writeRebuildable!(files);
    if (point === 'derived' && !index && ++reached === at) die();
  },
};

const log = await EventLog.open(store, { layout: 'segment' });
process.stdout.write('ready\n');
for (let round = 0; ; round++) {
  const events = Array.from({ length: batch }, (_, k) =>
    parseEvent({
      id: randomUUID(),
      timestamp: '2026-11-21T10:00:00.000000',
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: `${label} ${round} ${k}` }] },
      kind: 'MessageEvent',
    }),
  );
  const indices = await log.appendMany(events);
  for (const [k, index] of indices.entries()) process.stdout.write(`ack ${index} ${events[k]!.id}\n`);
}
