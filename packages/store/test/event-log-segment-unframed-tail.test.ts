import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { decodeRecords } from '../src/event-log/segment/segment-records.js';
import { EventLog } from '../src/event-log.js';
import {
  closedSegmentLog,
  collectWarnings,
  damageBackends,
  eventFileOf,
  readSegment,
  SEGMENT,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { recordStartOf } from './helpers/segment-bytes.js';

// The log's last two records damaged so that nothing frames the first of them (its length changed, its magic intact
// as a crash's prefix keeps it, or its magic, length and checksum all changed) and the second's magic changed too:
// walked from the front, the bytes read as a crash's cut-short write. But the last record's length and checksum
// still frame it up to the segment's end (a cut-short write leaves no such frame: it ends mid-record), and its header
// names its index and hash: the events from the log's next index up to it were acknowledged, and the hash chain
// proves their event files. Only where the last record is not framed either do the bytes read as a torn tail.

/** How m3's record is changed; m4's magic is changed too. */
const unframed = [
  { what: 'its length (its magic intact)', bytes: [6] },
  { what: 'its magic, length and checksum', bytes: [0, 6, 8] },
];

/** m0…m4 with the bytes `at` of m3's record and, in m4's, `m4` changed. */
async function damagedTail(store: Parameters<typeof closedSegmentLog>[0], at: number[], m4 = [0]): Promise<Buffer> {
  await closedSegmentLog(store, 5);
  const bytes = await readSegment(store);
  const damaged = Buffer.from(bytes);
  for (const [text, offsets] of [
    ['m3', at],
    ['m4', m4],
  ] as const) {
    const record = recordStartOf(bytes, text);
    for (const offset of offsets) damaged[record + offset] = damaged[record + offset]! ^ 0x20;
  }
  expect(decodeRecords(damaged, 0).records).toHaveLength(3);
  await store.write(SEGMENT, damaged);
  return bytes;
}

describe.each(damageBackends)('damaged last records nothing frames from the front ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it.each(unframed)('recovers both events when m3 has $what changed', async ({ bytes }) => {
    const store = await backend.make();
    await damagedTail(store, bytes);

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
    await damagedTail(store, unframed[0]!.bytes);

    const log = await EventLog.open(store, { rollForward: false });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    await log.close();
  });

  it.each([3, 4])('refuses, naming events 3…4, when the event file of %i is gone', async (lost) => {
    const store = await backend.make();
    await damagedTail(store, unframed[0]!.bytes);
    await store.delete(await eventFileOf(store, lost));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ missingIndex: 3, unrecovered: [lost], location: store.describe(SEGMENT) });
    expect((error as Error).message).toMatch(/events 3…4 are lost from the segment/);
  });

  it('reads as a torn tail where the last record is not framed either (its length changed too)', async () => {
    const store = await backend.make();
    await damagedTail(store, unframed[0]!.bytes, [0, 6]);

    // Exactly what a crash's cut-short write leaves: no frame ends at the segment's end.
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    expect(warnings).toEqual([]);
    expect(await log.append(userMessageEvent('next'))).toBe(3);
    await log.close();
  });
});
