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
import { recordStartOf } from './helpers/segment-bytes.js';

// A record whose magic and length both changed, then a record whose magic changed too: neither the first one's
// length nor the next magic says where it ends. A crash leaves a prefix of what a writer wrote, whose magic is
// intact; a record whose magic changed was written whole, and its checksum (intact) still proves where its payload
// ends. So these are acknowledged events, not a torn tail: recovered from their event files where the hash chain
// proves them, or refused by name, never dropped for the next append to take their indices.

/** The ways m3's length is changed: past the segment's end, or to a shorter one. */
const lengths = [
  { what: 'a longer length', at: 6, change: (byte: number) => byte ^ 0x20 },
  { what: 'a shorter length', at: 5, change: () => 0 },
];

/** `bytes` with m3's magic and length changed (as `length` says) and m4's magic changed. */
function damageFrames(bytes: Buffer, length: (typeof lengths)[number]): Buffer {
  const damaged = Buffer.from(bytes);
  const m3 = recordStartOf(damaged, 'm3');
  const m4 = recordStartOf(damaged, 'm4');
  damaged[m3] = damaged[m3]! ^ 0x20;
  damaged[m3 + length.at] = length.change(damaged[m3 + length.at]!);
  damaged[m4] = damaged[m4]! ^ 0x20;
  expect(decodeRecords(damaged, 0).records).toHaveLength(decodeRecords(bytes, 0).records.length - 2);
  return damaged;
}

/** m0…m4, m3 and m4 the segment's last records. */
async function lastRecords(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 5);
  return readSegment(store);
}

/** m0…m5: m5's record (intact) follows m3's and m4's, and chains to m4. */
async function beforeIntact(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 6);
  return readSegment(store);
}

/**
 * Each layout and how its damage is settled: as one run (the last damaged header proves both, or the intact record
 * after them, which proved them before records like these were framed: kept so every position stays covered), or one
 * record at a time (m3 restored in place of the lost race first, then m4 found after it).
 */
const layouts = [
  {
    name: 'the last records',
    build: lastRecords,
    events: ['m0', 'm1', 'm2', 'm3', 'm4'],
    recovered: [/events 3, 4 recovered from their event files/],
    refused: () => ({ missingIndex: 3, message: /events 3…4 are lost from the segment/, before: 3 }),
  },
  {
    name: 'before an intact record',
    build: beforeIntact,
    events: ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'],
    recovered: [/events 3, 4 recovered from their event files/],
    refused: () => ({ missingIndex: 3, message: /events 3…4 are lost from the segment/, before: 3 }),
  },
  {
    name: 'before a lost race for the first',
    build: lostRaceAfterTwo,
    events: ['m0', 'm1', 'm2', 'm3', 'm4'],
    recovered: [/event 3 recovered from their event files/, /event 4 recovered from their event files/],
    refused: (lost: number) => ({
      missingIndex: lost,
      message: new RegExp(`event ${lost} is lost from the segment`),
      before: lost,
    }),
  },
];

describe.each(damageBackends)('a record with a changed magic and length, then a changed magic ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  describe.each(layouts)('as $name', ({ build, events, recovered, refused }) => {
    it.each(lengths)('recovers both events with $what; the next append takes a new index', async (length) => {
      const store = await backend.make();
      await store.write(SEGMENT, damageFrames(await build(store), length));

      const { warnings, logger } = collectWarnings();
      const log = await EventLog.open(store, { logger });
      expect((await log.range(0)).map(messageText)).toEqual(events);
      for (const warning of recovered) expect(warnings.join('\n')).toMatch(warning);
      expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: events.length });
      expect(await log.append(userMessageEvent('next'))).toBe(events.length);
      await log.close();

      const again = collectWarnings();
      const reopened = await EventLog.open(store, { logger: again.logger });
      expect((await reopened.range(0)).map(messageText)).toEqual([...events, 'next']);
      expect(again.warnings).toEqual([]);
      await reopened.close();
    });

    it.each(lengths)('holds both events in memory, with $what, in a reader that does not write', async (length) => {
      const store = await backend.make();
      await store.write(SEGMENT, damageFrames(await build(store), length));

      const log = await EventLog.open(store, { rollForward: false });
      expect((await log.range(0)).map(messageText)).toEqual(events);
      await log.close();
    });

    it.each([3, 4])('refuses, naming the damaged events, when the event file of %i is gone', async (lost) => {
      const store = await backend.make();
      const bytes = await build(store);
      await store.delete(await eventFileOf(store, lost));
      await store.write(SEGMENT, damageFrames(bytes, lengths[0]!));
      const { missingIndex, message, before } = refused(lost);

      const error = await EventLog.open(store).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DamagedSegmentError);
      expect(error).toMatchObject({ missingIndex, unrecovered: [lost], location: store.describe(SEGMENT) });
      expect((error as Error).message).toMatch(message);
      const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
      expect((await prefix.range(0)).map(messageText)).toEqual(events.slice(0, before));
      await prefix.close();
    });
  });
});
