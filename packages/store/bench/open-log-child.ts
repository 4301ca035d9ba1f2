/**
 * Run by event-log.bench.ts in a fresh process: opens the log under argv[2] cold (by listing, or from
 * its name index with argv[3] = 'index'), reads its last 100
 * events, and prints an `OpenMeasurement` as JSON. A process of its own makes the RSS figure the
 * log's plus Node's baseline, not the parent bench's leftovers.
 */
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import type { OpenMeasurement } from './bench-utils.js';

const root = process.argv[2];
if (root === undefined) throw new Error('usage: open-log-child <root>');
const mb = (): number => process.memoryUsage().rss / 2 ** 20;
const heapMb = (): number => {
  // Started with --expose-gc by the bench, so the heap figure is what the open log holds.
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

// argv[3] 'list' (default): the open lists the directory, as without a name index; 'index': the store
// keeps its listingVersion, so the open uses events/.slots/name-index when it is current.
const local = createLocalFileStore({ root, durability: 'none' });
const store = process.argv[3] === 'index' ? local : { ...local, listingVersion: undefined };
const heapBeforeMb = heapMb();
const rssBeforeMb = mb();
let started = performance.now();
const log = await EventLog.open(store);
const openMs = performance.now() - started;
started = performance.now();
await log.range(-100);
const lastHundredMs = performance.now() - started;
const rssAfterMb = mb();
const measurement: OpenMeasurement = {
  events: log.length,
  openMs,
  lastHundredMs,
  rssBeforeMb,
  rssAfterMb,
  heapBeforeMb,
  heapAfterGcMb: heapMb(),
};
process.stdout.write(JSON.stringify(measurement));
