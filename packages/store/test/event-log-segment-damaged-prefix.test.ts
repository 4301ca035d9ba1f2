import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { ReadOnlyLogError } from '../src/errors/read-only-log-error.js';
import { EventLog } from '../src/event-log.js';
import {
  closedSegmentLog,
  collectWarnings,
  damageBackends,
  eventFileOf,
  flipByteOf,
  readSegment,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// Damage past recovery, read on request: `{ damagedSegment: 'read-intact-prefix' }` gives the events before the
// damage, read-only. And a repair as other writers see it: neither damage nor a fork.

describe.each(damageBackends)('a damaged segment ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it("opens the events before unrecoverable damage read-only with 'read-intact-prefix', and refuses appends", async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    await store.delete(await eventFileOf(store, 3));
    const damaged = await flipByteOf(store, 'm3');
    const listed = await store.list('events');

    // Never the default: an open without the option still refuses.
    await expect(EventLog.open(store)).rejects.toBeInstanceOf(DamagedSegmentError);
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger, damagedSegment: 'read-intact-prefix' });
    expect(log.length).toBe(3);
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    expect(warnings).toEqual([expect.stringMatching(/could not restore event 3.*opened read-only with the 3 events/)]);
    const refused = await log.append(userMessageEvent('m6')).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(ReadOnlyLogError);
    expect(refused).toMatchObject({ code: 'read_only_log', length: 3 });
    expect((refused as Error).message).toContain(store.describe('events'));
    await expect(log.appendMany([userMessageEvent('m7')])).rejects.toBeInstanceOf(ReadOnlyLogError);
    expect(await log.refresh()).toBe(0);
    await log.close();
    // Nothing written: the segment as the damage left it, no file added or removed.
    expect(await readSegment(store)).toEqual(damaged);
    expect(await store.list('events')).toEqual(listed);
  });

  it("reads an empty log when the first record is lost, and writes no anchor on an append's attempt", async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 3);
    await store.delete(await eventFileOf(store, 0));
    await flipByteOf(store, 'm0');
    const chain = await store.list('events/.chain').catch(() => []);

    const log = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
    expect(log.length).toBe(0);
    await expect(log.append(userMessageEvent('again'))).rejects.toBeInstanceOf(ReadOnlyLogError);
    await log.close();
    expect(await store.list('events/.chain').catch(() => [])).toEqual(chain);
  });

  it("still recovers what the event files prove with 'read-intact-prefix', and then appends", async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 4);
    await flipByteOf(store, 'm1');

    const log = await EventLog.open(store, { damagedSegment: 'read-intact-prefix' });
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(await log.append(userMessageEvent('m4'))).toBe(4);
    await log.close();
  });

  it('is repaired without other open writers taking the repair for damage or a fork', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    const first = collectWarnings();
    const writerA = await EventLog.open(store, { logger: first.logger });
    const writerB = await EventLog.open(store);
    const bytes = await readSegment(store);
    await backend.damageInPlace(store, bytes.indexOf('"m2"') + 2, 'X'.charCodeAt(0));

    const repairer = await EventLog.open(store);
    expect(repairer.length).toBe(6);
    expect(await writerA.refresh()).toBe(0);
    expect(await writerA.append(userMessageEvent('m6'))).toBe(6);
    // B learns A's event from the tail its append finds (the repair records among it) and takes the next index.
    expect(await writerB.append(userMessageEvent('m7'))).toBe(7);
    expect(await repairer.refresh()).toBe(2);
    expect(first.warnings).toEqual([]);
    for (const log of [writerA, writerB, repairer]) await log.close();

    const { warnings, logger } = collectWarnings();
    const reader = await EventLog.open(store, { logger });
    const all = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
    expect((await reader.range(0)).map(messageText)).toEqual(all);
    expect(warnings).toEqual([]);
    expect(await reader.verifyChain()).toMatchObject({ status: 'verified', length: 8 });
    await reader.close();
  });
});

describe.each(damageBackends)('damage an append finds in what other writers appended ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /** Writer A knows m0…m3; B appended m4 and m5 after; then B's m4 was damaged in place. */
  async function damagedUnderWriter(options: { keepEventFile: boolean }) {
    const store = await backend.make();
    await closedSegmentLog(store, 4);
    const writerA = await EventLog.open(store);
    const writerB = await EventLog.open(store);
    await writerB.appendMany([userMessageEvent('m4'), userMessageEvent('m5')]);
    await writerB.close();
    if (!options.keepEventFile) await store.delete(await eventFileOf(store, 4));
    const bytes = await readSegment(store);
    await backend.damageInPlace(store, bytes.indexOf('"m4"') + 2, 'X'.charCodeAt(0));
    return { store, writerA };
  }

  it('repairs it and appends after the events it learns', async () => {
    const { store, writerA } = await damagedUnderWriter({ keepEventFile: true });
    expect(await writerA.append(userMessageEvent('m6'))).toBe(6);
    await writerA.close();
    const reader = await EventLog.open(store);
    expect((await reader.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']);
    await reader.close();
  });

  it('refuses the append when the lost event cannot be recovered, without looping', async () => {
    const { writerA } = await damagedUnderWriter({ keepEventFile: false });
    await expect(writerA.append(userMessageEvent('m6'))).rejects.toMatchObject({
      code: 'damaged_segment',
      unrecovered: [4],
    });
    expect(writerA.length).toBe(4);
    await writerA.close();
  });
});
