import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { decodeRecords, encodeRecords } from '../src/event-log/segment/segment-records.js';
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
import { messageRecords } from './helpers/segment-bytes.js';

// What `selectRecords` (segment-selection.ts) decides at the edges its other tests do not reach: damage to the
// segment's very first record (offset 0, where "no damage" must not be confused with damage at the start), and a
// record for the next index, chained to the last event, whose id the log already holds (mutation-checked).

describe.each(damageBackends)('the segment first record damaged ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('is recovered from its event file, the bytes named from 0, and the events after it kept', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 3);
    const bytes = await readSegment(store);
    const m1 = decodeRecords(bytes, 0).records[1]!;
    await backend.damageInPlace(store, bytes.indexOf('"m0"') + 2, 'X'.charCodeAt(0));

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    expect(warnings).toEqual([
      expect.stringContaining(`bytes 0…${m1.offset - 1} are damaged; event 0 recovered from their event files`),
    ]);
    expect(await log.append(userMessageEvent('m3'))).toBe(3);
    await log.close();
  });

  it('is refused naming bytes from 0 when its event file is gone', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 3);
    const bytes = await readSegment(store);
    const m1 = decodeRecords(bytes, 0).records[1]!;
    await store.delete(await eventFileOf(store, 0));
    await backend.damageInPlace(store, bytes.indexOf('"m0"') + 2, 'X'.charCodeAt(0));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ offset: 0, end: m1.offset, missingIndex: 0, unrecovered: [0] });
  });
});

describe.each(damageBackends)('a record whose id the log holds already ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('is not taken at the next index, though it chains to the last event', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 3);
    const bytes = await readSegment(store);
    const [, m1, m2] = decodeRecords(bytes, 0).records;
    // m1's exact event again, at 3, chained to m2: a writer never appends an id twice, but bytes may say so.
    const again = encodeRecords(
      [{ event: { id: m1!.link.id }, json: Buffer.from(m1!.json).toString('utf8') }],
      3,
      m2!.link.hash,
      'other',
    ).bytes;
    await store.write(SEGMENT, Buffer.concat([bytes, again]));

    const log = await EventLog.open(store);
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    expect(await log.append(userMessageEvent('m3'))).toBe(3);
    await log.close();
  });

  it('is no repair of damage before a record that chains to it: the open is refused, nothing dropped', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 3);
    const bytes = await readSegment(store);
    const [, m1, m2] = decodeRecords(bytes, 0).records;
    // At 3, chained to m2, m1's event again; m4 chained to it; that record damaged where it lies before m4, and its
    // copy after m4: the chain proves the copy, yet the log holds its id at 1, and never takes an id twice.
    const twice = [{ event: { id: m1!.link.id }, json: Buffer.from(m1!.json).toString('utf8') }];
    const { bytes: copy, records } = encodeRecords(twice, 3, m2!.link.hash, 'other');
    const m4 = messageRecords(['m4'], { start: 4, prev: records[0]!.link.hash, writer: 'other' });
    const damaged = Buffer.from(copy);
    damaged[damaged.length - 3] = damaged[damaged.length - 3]! ^ 0x20;
    await store.write(SEGMENT, Buffer.concat([bytes, damaged, m4, copy]));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ offset: bytes.length, missingIndex: 3, unrecovered: [3] });
  });
});
