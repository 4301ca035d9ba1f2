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
  lostRaceAfterTwo,
  readSegment,
  SEGMENT,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { messageRecords, recordStartOf } from './helpers/segment-bytes.js';

// Two damaged records, m3 and m4, so that nothing frames m3 (its length changed, its magic intact as a crash's
// prefix keeps it, or its magic, length and checksum all changed) and m4's magic changed too: walked from the front,
// the bytes read as a crash's cut-short write. But m4's length and checksum still frame it up to where the bytes
// end (the segment's end, or the next intact record), which a cut-short write (it ends mid-record) cannot leave, and
// its header names its index and hash: the events from the log's next index up to it were acknowledged, and the hash
// chain proves their event files. Only where m4 is not framed either do the bytes read as a torn tail.

/** How m3's record is changed; m4's magic is changed too. */
const unframed = [
  { what: 'its length (its magic intact)', bytes: [6] },
  { what: 'its magic, length and checksum', bytes: [0, 6, 8] },
];

/** m0…m4: m3 and m4 the segment's last records. */
async function lastRecords(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 5);
  return readSegment(store);
}

/** m0…m4, then another writer's record for 2, chained to m1 as it had seen the log: its lost race to m2. */
async function lostRaceForEarlier(store: FileStore): Promise<Buffer> {
  const bytes = await lastRecords(store);
  const m1 = decodeRecords(bytes, 0).records[1]!;
  return Buffer.concat([bytes, messageRecords(['stale'], { start: 2, prev: m1.link.hash, writer: 'other' })]);
}

const layouts = [
  { name: 'the last records', build: lastRecords },
  { name: 'before a lost race for the first', build: lostRaceAfterTwo },
  { name: 'before a lost race for an earlier index', build: lostRaceForEarlier },
];

/** Writes `bytes` with the bytes `m3` of m3's record and `m4` of m4's changed. */
async function writeDamaged(store: FileStore, bytes: Buffer, m3: readonly number[], m4: readonly number[] = [0]) {
  const damaged = Buffer.from(bytes);
  for (const [text, offsets] of [
    ['m3', m3],
    ['m4', m4],
  ] as const) {
    const record = recordStartOf(bytes, text);
    for (const offset of offsets) damaged[record + offset] = damaged[record + offset]! ^ 0x20;
  }
  expect(decodeRecords(damaged, 0).records).toHaveLength(decodeRecords(bytes, 0).records.length - 2);
  await store.write(SEGMENT, damaged);
}

describe.each(damageBackends)('damaged records nothing frames from the front ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  describe.each(layouts)('as $name', ({ build }) => {
    it.each(unframed)('recovers both events when m3 has $what changed', async ({ bytes }) => {
      const store = await backend.make();
      await writeDamaged(store, await build(store), bytes);

      const { warnings, logger } = collectWarnings();
      const log = await EventLog.open(store, { logger });
      expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      expect(warnings.join('\n')).toMatch(/events 3, 4 recovered from their event files/);
      expect(await log.append(userMessageEvent('next'))).toBe(5);
      await log.close();

      const again = collectWarnings();
      const reopened = await EventLog.open(store, { logger: again.logger });
      expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'next']);
      expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: 6 });
      expect(again.warnings).toEqual([]);
      await reopened.close();
    });

    it('holds both events in memory in a reader that does not write', async () => {
      const store = await backend.make();
      await writeDamaged(store, await build(store), unframed[0]!.bytes);

      const log = await EventLog.open(store, { rollForward: false });
      expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      await log.close();
    });

    it.each([3, 4])('refuses, naming events 3…4, when the event file of %i is gone', async (lost) => {
      const store = await backend.make();
      const bytes = await build(store);
      await store.delete(await eventFileOf(store, lost));
      await writeDamaged(store, bytes, unframed[0]!.bytes);

      const error = await EventLog.open(store).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DamagedSegmentError);
      expect(error).toMatchObject({ missingIndex: 3, unrecovered: [lost], location: store.describe(SEGMENT) });
      expect((error as Error).message).toMatch(/events 3…4 are lost from the segment/);
      const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
      expect((await prefix.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
      await prefix.close();
    });
  });

  it('reads as a torn tail where the last record is not framed either (its length changed too)', async () => {
    const store = await backend.make();
    await writeDamaged(store, await lastRecords(store), unframed[0]!.bytes, [0, 6]);

    // Exactly what a crash's cut-short write leaves: no frame ends at the segment's end. A reader that does not
    // write reads the segment so, without a warning about it.
    const reader = collectWarnings();
    const prefix = await EventLog.open(store, { logger: reader.logger, rollForward: false });
    expect((await prefix.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    expect(reader.warnings.join('\n')).not.toMatch(/segment: bytes|damaged/);
    await prefix.close();
    // But the event files of m3 and m4 are there (written after their records committed), and the reference reads
    // them as events 3 and 4: a writer takes them back into the segment, and appends after them, not beside them.
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(warnings.join('\n')).toMatch(/did not hold the event files of indices 3…4 .*taken into the segment/);
    expect(await log.append(userMessageEvent('next'))).toBe(5);
    expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: 6 });
    await log.close();
  });
});
