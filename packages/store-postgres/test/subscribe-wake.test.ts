import { setMaxListeners } from 'node:events';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { countingDatabase } from '../src/testing/counting-database.js';
import { freshTablesShared } from './helpers/shared-database.js';

const open: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

/** Polling far beyond any test's run: only a notification can deliver in time. */
const NEVER_POLL = 3_600_000;

/** The first `count` entries of `log` from index 0 (and then stops). */
async function firstEntries(log: PostgresEventLog, count: number, signal: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for await (const { event } of log.subscribe(0, { signal, pollIntervalMs: NEVER_POLL })) {
    ids.push(event.id);
    if (ids.length === count) break;
  }
  return ids;
}

describe('subscriptions on another replica', () => {
  it('are woken by the notification, and 100 of them on one log share one read of the table', async () => {
    const [writerSide, readerSide] = await freshTablesShared(2);
    open.push(writerSide!, readerSide!);
    const { database, count } = countingDatabase(readerSide!);
    const writer = await PostgresEventLog.open(writerSide!, { logId: 'fan' });
    const reader = await PostgresEventLog.open(database, { logId: 'fan' });
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const first = contractMessageEvent('first');
    // The first event may commit before the LISTEN takes effect: the notifier reads the table once it does.
    const warmUp = Array.from({ length: 100 }, () => firstEntries(reader, 1, controller.signal));
    await writer.append(first);
    for (const ids of await Promise.all(warmUp)) expect(ids).toEqual([first.id]);

    const streams = Array.from({ length: 100 }, () => firstEntries(reader, 2, controller.signal));
    // Every subscription is waiting (each has read what is stored) before the next event is appended.
    await new Promise((resolve) => setImmediate(resolve));
    count.reset();
    const second = contractMessageEvent('second');
    await writer.append(second);
    for (const ids of await Promise.all(streams)) expect(ids).toEqual([first.id, second.id]);
    const reads = count.statements.filter((statement) => statement.startsWith('SELECT idx, event_id'));
    // One catch-up after the notification (a second one only if a wake-up raced the first), not one per subscriber.
    expect(reads.length).toBeLessThanOrEqual(2);
    controller.abort();
  });
});
