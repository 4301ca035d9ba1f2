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
import { lastRecordStart } from './helpers/segment-bytes.js';

// A damaged record followed by another writer's record for the same index, that lost the race to it: records for
// one index are taken first come, so the damaged one is the event acknowledged there, the other never was. Taking
// the later one would drop the acknowledged event and put the other in its place (a fork of what readers saw).

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
  // Both records for index 3 are in the segment, m3's first.
  expect(bytes.indexOf('"m3"')).toBeGreaterThan(0);
  expect(bytes.indexOf('"late"')).toBeGreaterThan(bytes.indexOf('"m3"'));
  expect(bytes.indexOf('"late"')).not.toBe(bytes.lastIndexOf('"late"'));
  return bytes;
}

/** The segment `bytes` with m3's text changed (its record's checksum then fails), cut after `cutAfter` bytes. */
async function damageM3(store: FileStore, bytes: Buffer, cutAfter = bytes.length): Promise<void> {
  const damaged = Buffer.from(bytes.subarray(0, cutAfter));
  damaged[damaged.indexOf('"m3"') + 2] = 'X'.charCodeAt(0);
  await store.write(SEGMENT, damaged);
}

describe.each(damageBackends)('a damaged record before a lost race for its index ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('is recovered from its proven event file; the lost race is not taken in its place', async () => {
    const store = await backend.make();
    await damageM3(store, await lostRace(store));

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'late']);
    expect(warnings.join('\n')).toMatch(/event 3 recovered from their event files/);
    expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: 5 });
    await log.close();
  });

  it('refuses, with the writer that lost the race cut off before writing again, rather than take its record', async () => {
    const store = await backend.make();
    const bytes = await lostRace(store);
    // The second writer's record for 4 gone (it crashed before writing again): its lost race is the last record.
    await damageM3(store, bytes, lastRecordStart(bytes));
    await store.delete(await eventFileOf(store, 3));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ missingIndex: 3, unrecovered: [3], location: store.describe(SEGMENT) });
    const prefix = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
    expect((await prefix.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    await prefix.close();
  });
});
