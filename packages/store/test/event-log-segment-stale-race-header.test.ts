import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
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
import { lastRecordStart, messageRecords, recordOf, withRecordByteChanged } from './helpers/segment-bytes.js';

// As event-log-segment-stale-race.test.ts, but with the damaged record's header gone too (its framing or the chain
// link it names): nothing in it says which index it held. The other writer's record for that index, that lost the
// race to it, chains to the same event before it, yet the records after it chain to the damaged one, which proves
// that it held a committed event: the lost race is never taken in its place (that would drop the acknowledged event
// and every event after it, and fork the log at the next append).

/**
 * Events m0…m2, then `m3` committed at 3 by one writer and `late` written at 3 too by another that had not seen it
 * (its lost race), which that writer then appends again at 4. Returns the segment's bytes.
 */
async function lostRace(store: FileStore): Promise<Buffer> {
  await closedSegmentLog(store, 3);
  const first = await EventLog.open(store);
  const second = await EventLog.open(store);
  expect(await first.append(userMessageEvent('m3'))).toBe(3);
  expect(await second.append(userMessageEvent('late'))).toBe(4);
  await first.close();
  await second.close();
  const bytes = await readSegment(store);
  expect(bytes.indexOf('"late"')).toBeGreaterThan(bytes.indexOf('"m3"'));
  expect(bytes.indexOf('"late"')).not.toBe(bytes.lastIndexOf('"late"'));
  return bytes;
}

/**
 * As `lostRace`, but the writer that lost the race crashed before writing again, and the first writer then
 * appended `m4` at 4 (chained to m3): the segment is m0…m3, the lost race for 3, m4.
 */
async function lostRaceThenCrash(store: FileStore): Promise<Buffer> {
  const bytes = await lostRace(store);
  const withoutRetry = bytes.subarray(0, lastRecordStart(bytes));
  const m3 = recordOf(withoutRetry, 'm3');
  const segment = Buffer.concat([
    withoutRetry,
    messageRecords(['m4'], { start: 4, prev: m3.link.hash, writer: 'first' }),
  ]);
  await store.write(SEGMENT, segment);
  return segment;
}

/** Where each way of damaging a record's header hits, from the record's start (its magic). */
const headerDamage = [
  { what: 'its magic', at: 0 },
  { what: 'its payload length', at: 5 },
  { what: 'the chain link it names', at: 12 },
];

/** The segment `bytes` with a byte of m3's record's header changed (so its checksum fails too). */
async function damageM3Header(store: FileStore, bytes: Buffer, at: number): Promise<void> {
  await store.write(SEGMENT, withRecordByteChanged(bytes, 'm3', at));
}

describe.each(damageBackends)('a record with a damaged header before a lost race for its index ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it.each(headerDamage)('is recovered from its proven event file when $what is damaged', async ({ at }) => {
    const store = await backend.make();
    await damageM3Header(store, await lostRace(store), at);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'late']);
    expect(warnings.join('\n')).toMatch(/event 3 recovered from their event files/);
    expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: 5 });
    // The next append goes after the acknowledged events, and a later open reads the repaired log.
    expect(await log.append(userMessageEvent('next'))).toBe(5);
    await log.close();
    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'late', 'next']);
    await reopened.close();
  });

  it("is recovered, by a reader that does not write, when the lost race was its writer's last record", async () => {
    const store = await backend.make();
    await damageM3Header(store, await lostRaceThenCrash(store), 12);

    const log = await EventLog.open(store, { rollForward: false });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    await log.close();
  });

  it('refuses rather than take the lost race when its event file cannot restore it', async () => {
    const store = await backend.make();
    await damageM3Header(store, await lostRaceThenCrash(store), 0);
    await store.delete(await eventFileOf(store, 3));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ missingIndex: 3, unrecovered: [3], location: store.describe(SEGMENT) });
    const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
    expect((await prefix.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    await prefix.close();
  });
});
