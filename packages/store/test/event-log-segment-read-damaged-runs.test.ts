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
} from './helpers/damaged-segment.js';
import { messageText } from './helpers/events.js';
import { recordOf } from './helpers/segment-bytes.js';

// Records damaged one after another, all before any of them is read, after a repair moved an earlier event to the
// segment's end: a read meets a damaged run of several records, each of which took one acknowledged event. Every
// event of the run is recovered from its proven event file, however many there are (the last ones of the log, whose
// damaged headers are all that proves them, or ones an intact record follows), or, when one cannot be, the read is
// refused naming the run; nothing is served twice or dropped.

const COUNT = 8;
const all = Array.from({ length: COUNT }, (_, index) => `m${index}`);

/** Where the damage goes in each record: a byte of its event's text, or its magic. */
const damages = [
  { what: 'payloads', damage: (bytes: Buffer, index: number) => bytes.indexOf(`"m${index}"`) + 2 },
  { what: 'magics', damage: (bytes: Buffer, index: number) => recordOf(bytes, `m${index}`).offset },
];

/**
 * Runs of consecutive records, at the end of the log (nothing intact after them: only the last damaged header proves
 * them) and in its middle (the intact record after them proves them, as it did before runs at the end were handled;
 * kept here so both stay covered by one model).
 */
const runs = [
  { where: 'the last 2', indices: [6, 7] },
  { where: 'the last 3', indices: [5, 6, 7] },
  { where: '2 in the middle', indices: [3, 4] },
  { where: '3 in the middle', indices: [3, 4, 5] },
];

describe.each(damageBackends)('consecutive damaged records met by a read ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /**
   * A log of COUNT events whose event 1 a read repaired (moved to the segment's end), then the records of `indices`
   * damaged as `damage` says, none read yet; the segment as written and the span the damaged records take in it.
   */
  async function damagedRun(indices: readonly number[], damage: (bytes: Buffer, index: number) => number) {
    const store = await backend.make();
    await closedSegmentLog(store, COUNT);
    const bytes = await readSegment(store);
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    await backend.damageInPlace(store, bytes.indexOf('"m1"') + 2, 'X'.charCodeAt(0));
    expect(messageText(await log.get(1))).toBe('m1');
    for (const index of indices) {
      const at = damage(bytes, index);
      await backend.damageInPlace(store, at, bytes[at]! ^ 0x20);
    }
    const span = { offset: recordOf(bytes, `m${indices[0]}`).offset, end: recordOf(bytes, `m${indices.at(-1)}`).end };
    return { store, log, warnings, span };
  }

  /** Reopens `store` and checks it holds every event, verified, with nothing left to warn about. */
  async function expectWholeOnReopen(store: FileStore): Promise<void> {
    const again = collectWarnings();
    const reopened = await EventLog.open(store, { logger: again.logger });
    expect((await reopened.range(0)).map(messageText)).toEqual(all);
    expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: COUNT });
    expect(again.warnings).toEqual([]);
    await reopened.close();
  }

  describe.each(damages)('damaged in their $what', ({ damage }) => {
    it.each(runs)('recovers every event of $where from its event file', async ({ indices }) => {
      const { store, log, warnings, span } = await damagedRun(indices, damage);

      expect(messageText(await log.get(indices[0]!))).toBe(`m${indices[0]}`);
      expect((await log.range(0)).map(messageText)).toEqual(all);
      expect(warnings).toHaveLength(2);
      expect(warnings[1]).toContain(
        `bytes ${span.offset}…${span.end - 1} are damaged; events ${indices.join(', ')} recovered from their event files`,
      );
      await log.close();
      await expectWholeOnReopen(store);
    });
  });

  it.each(runs)('recovers $where when the read meets the run at its last record', async ({ indices }) => {
    const { store, log, warnings } = await damagedRun(indices, damages[0]!.damage);
    const last = indices.at(-1)!;

    expect(messageText(await log.get(last))).toBe(`m${last}`);
    expect(warnings[1]).toContain(`events ${indices.join(', ')} recovered`);
    expect((await log.range(0)).map(messageText)).toEqual(all);
    await log.close();
    await expectWholeOnReopen(store);
  });

  it.each(
    runs.flatMap(({ where, indices }) => [
      { where, indices, lost: indices[0]!, which: 'first' },
      { where, indices, lost: indices.at(-1)!, which: 'last' },
    ]),
  )('refuses $where, naming the run, when the $which event file is gone', async ({ indices, lost }) => {
    const { store, log, span } = await damagedRun(indices, damages[1]!.damage);
    await store.delete(await eventFileOf(store, lost));

    const error = await log.get(indices[0]!).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ ...span, missingIndex: indices[0], reading: indices[0], unrecovered: [lost] });
    expect((error as Error).message).toContain(`where events ${indices[0]}…${indices.at(-1)} were`);
    // The events before and after the run read; none of the run is served in part.
    expect(messageText(await log.get(indices[0]! - 1))).toBe(`m${indices[0]! - 1}`);
    if (indices.at(-1)! < COUNT - 1) expect(messageText(await log.get(COUNT - 1))).toBe(`m${COUNT - 1}`);
    for (const index of indices) await expect(log.get(index)).rejects.toBeInstanceOf(DamagedSegmentError);
    await log.close();
  });
});
