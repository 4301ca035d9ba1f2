import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import {
  closedSegmentLog,
  collectWarnings,
  type DamageBackend,
  damageBackends,
  eventFileOf,
  readSegment,
  SEGMENT,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A damaged record, another writer's lost race for its index, then more damage: the record that writer appended again
// at the next index. Repairing the first damage takes its repair record, appended at the segment's end; the damage
// after the lost race is still the log's, and the events after it (acknowledged) are still the log's too.

/**
 * Events m0…m2, `m3` at 3, `late` at 3 by a writer that had not seen it (its lost race) and again at 4, then `m5` at
 * 5; the payloads of m3's record and of `late`'s record for 4 damaged in place.
 */
async function damagedAroundLostRace(store: FileStore, backend: DamageBackend): Promise<void> {
  await closedSegmentLog(store, 3);
  const first = await EventLog.open(store);
  const second = await EventLog.open(store);
  expect(await first.append(userMessageEvent('m3'))).toBe(3);
  expect(await second.append(userMessageEvent('late'))).toBe(4);
  await first.close();
  await second.close();
  const third = await EventLog.open(store);
  expect(await third.append(userMessageEvent('m5'))).toBe(5);
  await third.close();
  const bytes = await readSegment(store);
  // `late` twice (its lost race at 3, then at 4), m3's record before both.
  expect(bytes.indexOf('"late"')).toBeGreaterThan(bytes.indexOf('"m3"'));
  expect(bytes.indexOf('"late"')).not.toBe(bytes.lastIndexOf('"late"'));
  await backend.damageInPlace(store, bytes.indexOf('"m3"') + 2, 'X'.charCodeAt(0));
  await backend.damageInPlace(store, bytes.lastIndexOf('"late"') + 2, 'X'.charCodeAt(0));
}

describe.each(damageBackends)('damage after a lost race whose damaged winner was repaired ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('recovers both damaged events and keeps the event after them; the next append takes a new index', async () => {
    const store = await backend.make();
    await damagedAroundLostRace(store, backend);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'late', 'm5']);
    expect(warnings.join('\n')).toMatch(/event 3 recovered from their event files/);
    expect(warnings.join('\n')).toMatch(/event 4 recovered from their event files/);
    expect(warnings.join('\n')).not.toMatch(/skipped/);
    expect(await log.append(userMessageEvent('m6'))).toBe(6);
    expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: 7 });
    await log.close();

    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'late', 'm5', 'm6']);
    await reopened.close();
  });

  it('refuses, naming the lost index, when the damaged event after the lost race has no event file', async () => {
    const store = await backend.make();
    await damagedAroundLostRace(store, backend);
    await store.delete(await eventFileOf(store, 4));

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ missingIndex: 4, unrecovered: [4], location: store.describe(SEGMENT) });
  });
});
