import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { SEGMENT_INDEX_MIN_COUNT } from '../src/event-log/segment/segment-index.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { collectWarnings, damageBackends, eventFileOf, readSegment, SEGMENT } from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// Damage inside the records a segment index covers: an open that adopts the index does not scan them (that is
// what makes it fast), so a read meets it. The read repairs it as the open would (proven event files), or refuses
// that event with a `DamagedSegmentError` naming the segment, the bytes and the event; every other event reads.

const COUNT = SEGMENT_INDEX_MIN_COUNT + 8;
const texts = Array.from({ length: COUNT }, (_, index) => `m${index}`);

/** A closed segment log of COUNT events (long enough that its writer's close writes a segment index). */
async function indexedLog(store: FileStore): Promise<void> {
  const log = await EventLog.open(store, { layout: 'segment' });
  await log.appendMany(texts.map((text) => userMessageEvent(text)));
  await log.close();
  expect(await store.exists('events/.slots/segment-index')).toBe(true);
}

/** Changes one byte of event `index`'s text in the segment (the record's checksum then fails); its offset. */
async function damageEvent(store: FileStore, index: number): Promise<number> {
  const bytes = await readSegment(store);
  const at = bytes.indexOf(`"m${index}"`) + 2;
  bytes[at] = 'X'.charCodeAt(0);
  await store.write(SEGMENT, bytes);
  return at;
}

describe.each(damageBackends)('damage a segment index covers, met by a read ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('repairs it from the proven event file, warns, and leaves a segment and index that read clean', async () => {
    const store = await backend.make();
    await indexedLog(store);
    const at = await damageEvent(store, 5);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    // The open adopted the index: it did not read the damaged record.
    expect(warnings).toEqual([]);
    expect(messageText(await log.get(5))).toBe('m5');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(store.describe(SEGMENT));
    expect(warnings[0]).toMatch(/bytes (\d+)…(\d+) are damaged; event 5 recovered from their event files/);
    const [, from, to] = /bytes (\d+)…(\d+)/.exec(warnings[0]!)!;
    expect(Number(from)).toBeLessThan(at);
    expect(Number(to)).toBeGreaterThan(at);
    expect((await log.range(0)).map(messageText)).toEqual(texts);
    await log.close();

    const again = collectWarnings();
    const reopened = await EventLog.open(store, { logger: again.logger });
    expect((await reopened.range(0)).map(messageText)).toEqual(texts);
    expect(await reopened.append(userMessageEvent('after'))).toBe(COUNT);
    expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: COUNT + 1 });
    // The repair is in the segment and the index its writer wrote points at it: nothing damaged is met again.
    expect(again.warnings).toEqual([]);
    await reopened.close();
  });

  it('refuses the damaged event with a DamagedSegmentError naming segment, bytes and index; the rest read', async () => {
    const store = await backend.make();
    await indexedLog(store);
    await store.delete(await eventFileOf(store, 7));
    const at = await damageEvent(store, 7);

    const log = await EventLog.open(store);
    const error = await log.get(7).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    const damaged = error as DamagedSegmentError;
    expect(damaged).toMatchObject({
      code: 'damaged_segment',
      location: store.describe(SEGMENT),
      missingIndex: 7,
      reading: 7,
      unrecovered: [7],
    });
    expect(damaged.offset).toBeLessThan(at);
    expect(damaged.end).toBeGreaterThan(at);
    expect(damaged.message).toContain(`bytes ${damaged.offset}…${damaged.end - 1}`);
    expect(damaged.message).toMatch(/event 7 cannot be read .*could not restore event 7.*the log's other events can/);
    expect(messageText(await log.get(6))).toBe('m6');
    expect(messageText(await log.get(8))).toBe('m8');
    expect((await log.range(8)).map(messageText)).toEqual(texts.slice(8));
    expect(await log.append(userMessageEvent('after'))).toBe(COUNT);
    await expect(log.get(7)).rejects.toBeInstanceOf(DamagedSegmentError);
    await log.close();
  });

  it('uses the repair records another instance appended, when the event file is gone since', async () => {
    const store = await backend.make();
    await indexedLog(store);
    await damageEvent(store, 3);
    const repairing = await EventLog.open(store);
    expect(messageText(await repairing.get(3))).toBe('m3');
    // Not closed: the index on disk still points at the damaged record. The event file is lost too.
    await store.delete(await eventFileOf(store, 3));

    const { warnings, logger } = collectWarnings();
    const other = await EventLog.open(store, { logger });
    expect(messageText(await other.get(3))).toBe('m3');
    expect(warnings).toEqual([
      expect.stringMatching(/event 3 recovered .*read from the repair records in the segment/),
    ]);
    await other.close();
    await repairing.close();
  });

  it('holds the recovered event in memory in a reader that does not write', async () => {
    const store = await backend.make();
    await indexedLog(store);
    const damaged = await damageEvent(store, 4);
    const before = await readSegment(store);

    const { warnings, logger } = collectWarnings();
    const reader = await EventLog.open(store, { logger, rollForward: false });
    expect(messageText(await reader.get(4))).toBe('m4');
    expect(warnings).toEqual([expect.stringMatching(/event 4 recovered .*kept in memory/)]);
    expect((await readSegment(store)).equals(before)).toBe(true);
    expect((await readSegment(store))[damaged]).toBe('X'.charCodeAt(0));
    await reader.close();
  });

  it('keeps an index that covers an open-time repair (its positions out of file order) usable', async () => {
    const store = await backend.make();
    await indexedLog(store);
    await damageEvent(store, 9);
    // No index: the open reads the segment whole, repairs event 9 at the end of the segment, and its close
    // writes an index whose event 9 lies after event 10.
    await store.delete('events/.slots/segment-index');
    const repairing = await EventLog.open(store);
    await repairing.close();

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(texts);
    expect(warnings).toEqual([]);
    await log.close();
  });
});
