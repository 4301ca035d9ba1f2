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
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import {
  lastRecordStart,
  messageRecords,
  nextRecordStart,
  recordStartOf,
  withRecordByteChanged,
} from './helpers/segment-bytes.js';

// As event-log-segment-stale-race-header.test.ts, but with nothing after the lost race: the writer that lost the
// race for index 3 to `m3` crashed between that write and its next (which would have appended `late` again at 4,
// chained to m3), and no one appended since. Then m3's record was damaged. No later record proves m3 committed, yet
// the segment still shows a whole record before the lost race (not what a crash leaves: a prefix of a record, or one
// ending in zeros), so the lost race is never taken at 3: m3 is restored from its event file where the hash chain
// proves it, and the log is refused (DamagedSegmentError) where not. The same holds with no lost race at all (m3 the
// segment's last record), and with a lost race for an earlier index after m3.

/** The bytes of m0…m3 and `late`'s record for index 3 (its lost race), the last record. */
async function lostRaceLast(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 3);
  const first = await EventLog.open(store);
  const second = await EventLog.open(store);
  expect(await first.append(userMessageEvent('m3'))).toBe(3);
  expect(await second.append(userMessageEvent('late'))).toBe(4);
  await first.close();
  await second.close();
  const bytes = await readSegment(store);
  // The second writer's record for 4 gone (it crashed before writing it): its lost race for 3 is the last record.
  const segment = bytes.subarray(0, lastRecordStart(bytes));
  // Nor did it write what follows a write: its event file, and its record of the chain's head at 5 events.
  await store.write(SEGMENT, segment);
  await store.delete(await eventFileOf(store, 4));
  await store.delete('events/.chain/head-00005.json');
  const records = decodeRecords(segment, 0).records;
  expect(records.map(({ link }) => link.index)).toEqual([0, 1, 2, 3, 3]);
  expect(segment.lastIndexOf('"late"')).toBeGreaterThan(segment.indexOf('"m3"'));
  return Buffer.from(segment);
}

/** m0…m3, m3's record the segment's last. */
async function m3Last(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 4);
  return readSegment(store);
}

/**
 * `bytes` with the byte `at` bytes into m3's record changed (its checksum fails, or its frame no longer holds): a
 * bit flipped, or the byte zeroed.
 */
function damageM3(bytes: Buffer, at: number, zero = false): Buffer {
  const record = recordStartOf(bytes, 'm3');
  // The records here are 256…65,535 bytes long: a length's second byte is non-zero, its third zero.
  expect(bytes.readUInt32LE(record + 4)).toBeGreaterThan(0xff);
  expect(bytes.readUInt32LE(record + 4)).toBeLessThan(0x10000);
  return withRecordByteChanged(bytes, 'm3', at, zero);
}

/** Where each kind of damage hits, from the start of m3's record; `readable`: its header still names its link. */
const damages = [
  { what: 'its magic', at: 0, readable: true },
  { what: 'its payload length', at: 6, readable: true },
  { what: 'its payload length (to a shorter one)', at: 5, zero: true, readable: true },
  { what: 'its checksum', at: 8, readable: true },
  { what: 'the chain link it names', at: 12, readable: false },
  { what: 'the id in its chain link', at: 40, readable: false },
];

/** How each segment above is built: the last record after m3 a lost race for 3, or m3 the last record. */
const layouts = [
  { name: 'a lost race for its index', build: lostRaceLast },
  { name: 'nothing', build: m3Last },
];

describe.each(damageBackends)('a damaged record followed by no record the log takes ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  describe.each(layouts)('followed by $name', ({ build }) => {
    it.each(damages.filter(({ readable }) => readable))(
      'is recovered from its proven event file when $what is damaged',
      async ({ at, zero }) => {
        const store = await backend.make();
        await store.write(SEGMENT, damageM3(await build(store), at, zero));

        const { warnings, logger } = collectWarnings();
        const log = await EventLog.open(store, { logger });
        expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
        expect(warnings.join('\n')).toMatch(/event 3 recovered from their event files/);
        expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: 4 });
        // The next append goes after the acknowledged events, and a later open reads the repaired log.
        expect(await log.append(userMessageEvent('next'))).toBe(4);
        await log.close();
        const reopened = await EventLog.open(store);
        expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'next']);
        await reopened.close();
      },
    );

    it.each(damages)('refuses when $what is damaged and the event file cannot restore it', async ({ at, zero }) => {
      const store = await backend.make();
      const bytes = await build(store);
      await store.delete(await eventFileOf(store, 3));
      await store.write(SEGMENT, damageM3(bytes, at, zero));

      const error = await EventLog.open(store).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DamagedSegmentError);
      expect(error).toMatchObject({ missingIndex: 3, unrecovered: [3], location: store.describe(SEGMENT) });
      expect((error as Error).message).toMatch(/the log's last record, whole but changed since it was written/);
      const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
      expect((await prefix.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
      await prefix.close();
    });
  });

  it('refuses when the header no longer says which event it held, even with its event file there', async () => {
    const store = await backend.make();
    await store.write(SEGMENT, damageM3(await lostRaceLast(store), 12));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'DamagedSegmentError', missingIndex: 3, unrecovered: [3] });
  });

  it('is refused by a reader that meets it on a refresh, not read past', async () => {
    const store = await backend.make();
    const bytes = damageM3(await lostRaceLast(store), 12);
    const before = bytes.subarray(0, recordStartOf(bytes, 'm3'));
    await store.write(SEGMENT, before);
    await store.delete(await eventFileOf(store, 3));
    const reader = await EventLog.open(store, { rollForward: false });
    expect(reader.length).toBe(3);

    // What the two writers appended after the reader opened, as they left it (m3's record since damaged).
    const file = await store.openAppendFile!(SEGMENT);
    await file.append(bytes.subarray(before.length));
    await file.close();
    await expect(reader.refresh()).rejects.toBeInstanceOf(DamagedSegmentError);
    expect(reader.length).toBe(3);
    await reader.close();
  });

  it('is recovered when the records after it are a lost race for an earlier index', async () => {
    const store = await backend.make();
    const bytes = await m3Last(store);
    const { records } = decodeRecords(bytes, 0);
    // Another writer's record for 2, chained to 1 as it had seen the log: it lost the race to m2.
    const lostRace = messageRecords(['stale'], { start: 2, prev: records[1]!.link.hash, writer: 'other' });
    const damaged = Buffer.from(bytes);
    damaged[damaged.indexOf('"m3"') + 2] = 'X'.charCodeAt(0);
    await store.write(SEGMENT, Buffer.concat([damaged, lostRace]));

    const log = await EventLog.open(store);
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(await log.append(userMessageEvent('next'))).toBe(4);
    await log.close();
  });
});

describe.each(damageBackends)('a damaged record whose header no longer says which index it held ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /** m0…m2, a lost race for 2 (its chain link damaged), then records for 3… chained from m2 (`after`). */
  async function damagedLostRaceThen(store: FileStore, after: string[]): Promise<void> {
    await closedSegmentLog(store, 3);
    const bytes = await readSegment(store);
    const [, m1, m2] = decodeRecords(bytes, 0).records;
    const lostRace = messageRecords(['stale'], { start: 2, prev: m1!.link.hash, writer: 'other' });
    lostRace[12] = lostRace[12]! ^ 0x20;
    const records = messageRecords(after, { start: 3, prev: m2!.link.hash, writer: 'other' });
    await store.write(SEGMENT, Buffer.concat([bytes, lostRace, records]));
  }

  it('takes the records after it when a later record chains to the first of them', async () => {
    const store = await backend.make();
    await damagedLostRaceThen(store, ['m3', 'm4']);

    const log = await EventLog.open(store, { rollForward: false });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    await log.close();
  });

  it('refuses the one record after it, which nothing confirms, rather than guess', async () => {
    const store = await backend.make();
    await damagedLostRaceThen(store, ['m3']);

    const error = await EventLog.open(store, { rollForward: false }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'DamagedSegmentError', missingIndex: 3, unrecovered: [3] });
  });
});

describe.each(damageBackends)('what a crash leaves before the last record ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /** m0…m2, then `bytes` where a crashed writer's record for 3 was, then `late`'s record for 3. */
  async function afterCrash(store: FileStore, crashed: (record: Buffer) => Buffer): Promise<void> {
    const bytes = await lostRaceLast(store);
    const m3 = recordStartOf(bytes, 'm3');
    const late = nextRecordStart(bytes, m3);
    await store.delete(await eventFileOf(store, 3));
    await store.write(
      SEGMENT,
      Buffer.concat([bytes.subarray(0, m3), crashed(bytes.subarray(m3, late)), bytes.subarray(late)]),
    );
  }

  it.each([
    { what: 'a record cut short', crashed: (record: Buffer) => record.subarray(0, record.length - 7) },
    { what: 'a header alone', crashed: (record: Buffer) => record.subarray(0, 12) },
    {
      what: 'a whole-length record ending in zeros (a power loss)',
      crashed: (record: Buffer) => Buffer.concat([record.subarray(0, 40), Buffer.alloc(record.length - 40)]),
    },
  ])('takes the record after $what: that write was never acknowledged', async ({ crashed }) => {
    const store = await backend.make();
    await afterCrash(store, crashed);

    const log = await EventLog.open(store);
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'late']);
    await log.close();
  });
});
