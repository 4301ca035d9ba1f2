import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { decodeRecords } from '../src/event-log/segment/segment-records.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import {
  closedSegmentLog,
  collectWarnings,
  damageBackends,
  eventFileOf,
  readSegment,
  SEGMENT,
  twoThenLostRace,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { lastRecordStart, messageRecords } from './helpers/segment-bytes.js';

// Two damaged records in one run, then another writer's lost race for the first one's index: m3 and m4 committed one
// after the other, both damaged before any read, and `late`, written at 3 by a writer that had not seen them, after
// both. Repairing m3 (the lost race is never taken in its place) must not pass over m4, which shares its skipped run:
// m4 was acknowledged too, and the next append must not take its index.

/**
 * Events m0…m4 (m3 and m4 by one writer), `late` at 3 by another writer that had not seen them (its lost race), then,
 * with `retried`, `late` again at 5, chained to m4; without, that writer crashed before writing again (its event file
 * and its record of the chain's head gone too). The payloads of m3 and m4 damaged.
 */
async function damagedRunBeforeLostRace(store: FileStore, retried: boolean): Promise<void> {
  let bytes = await twoThenLostRace(store);
  expect(decodeRecords(bytes, 0).records.map(({ link }) => link.index)).toEqual([0, 1, 2, 3, 4, 3, 5]);
  if (!retried) {
    bytes = bytes.subarray(0, lastRecordStart(bytes));
    await store.delete(await eventFileOf(store, 5));
    await store.delete('events/.chain/head-00006.json');
  }
  const damaged = Buffer.from(bytes);
  for (const text of ['m3', 'm4']) damaged[damaged.indexOf(`"${text}"`) + 2] = 'X'.charCodeAt(0);
  await store.write(SEGMENT, damaged);
}

const layouts = [
  { name: 'appended again after them', retried: true, events: ['m0', 'm1', 'm2', 'm3', 'm4', 'late'] },
  { name: 'its last record', retried: false, events: ['m0', 'm1', 'm2', 'm3', 'm4'] },
];

describe.each(damageBackends)('damaged records in one run before a lost race for the first ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  describe.each(layouts)('the lost race $name', ({ retried, events }) => {
    it('recovers every damaged event; the next append takes a new index', async () => {
      const store = await backend.make();
      await damagedRunBeforeLostRace(store, retried);

      const { warnings, logger } = collectWarnings();
      const log = await EventLog.open(store, { logger });
      expect((await log.range(0)).map(messageText)).toEqual(events);
      expect(warnings.join('\n')).toMatch(/event 3 recovered from their event files/);
      expect(warnings.join('\n')).toMatch(/event 4 recovered from their event files/);
      expect(warnings.join('\n')).not.toMatch(/skipped/);
      expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: events.length });
      expect(await log.append(userMessageEvent('next'))).toBe(events.length);
      await log.close();

      const again = collectWarnings();
      const reopened = await EventLog.open(store, { logger: again.logger });
      expect((await reopened.range(0)).map(messageText)).toEqual([...events, 'next']);
      expect(again.warnings).toEqual([]);
      await reopened.close();
    });

    it('recovers every damaged event for a reader that does not write', async () => {
      const store = await backend.make();
      await damagedRunBeforeLostRace(store, retried);

      const log = await EventLog.open(store, { rollForward: false });
      expect((await log.range(0)).map(messageText)).toEqual(events);
      await log.close();
    });

    it.each([3, 4])('refuses, naming index %i, when its event file is gone', async (lost) => {
      const store = await backend.make();
      await damagedRunBeforeLostRace(store, retried);
      await store.delete(await eventFileOf(store, lost));

      const error = await EventLog.open(store).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DamagedSegmentError);
      expect(error).toMatchObject({ missingIndex: lost, unrecovered: [lost], location: store.describe(SEGMENT) });
      // The events before the one refused, m3 among them once repaired: never the lost race in m3's place.
      const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
      expect((await prefix.range(0)).map(messageText)).toEqual(events.slice(0, lost));
      await prefix.close();
    });
  });
});

describe.each(damageBackends)('a repaired record in a run with a crash after it ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('warns about the cut-short write the repair does not explain, and takes no index for it', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 4);
    const bytes = await readSegment(store);
    const [, , m2, m3] = decodeRecords(bytes, 0).records;
    // A writer's record for 4 cut short by a crash, then another writer's lost race for 3 (it had not seen m3).
    const torn = messageRecords(['torn'], { start: 4, prev: m3!.link.hash, writer: 'crashed' });
    const cut = torn.subarray(0, torn.length - 7);
    const lostRace = messageRecords(['late'], { start: 3, prev: m2!.link.hash, writer: 'other' });
    const damaged = Buffer.concat([bytes, cut, lostRace]);
    damaged[damaged.indexOf('"m3"') + 2] = 'X'.charCodeAt(0);
    await store.write(SEGMENT, damaged);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(warnings.join('\n')).toMatch(/event 3 recovered from their event files/);
    expect(warnings.join('\n')).toContain(
      `bytes ${bytes.length}…${bytes.length + cut.length - 1} are not an intact record (a write cut short by a crash, or damage) and were skipped`,
    );
    expect(await log.append(userMessageEvent('next'))).toBe(4);
    await log.close();
  });
});
