import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import {
  closedSegmentLog,
  collectWarnings,
  damageBackends,
  eventFileOf,
  flipByteOf,
  readSegment,
  SEGMENT,
} from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A committed record damaged after the fact, with the event files derived from the segment still there: the log
// opens whole where the hash chain proves those files, repairs its segment, and refuses (naming the events) where not.

const six = ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'];

describe.each(damageBackends)('a damaged segment recovered from its event files ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('opens whole past a damaged middle record, warns, repairs the segment, and reopens without a warning', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    const damaged = await flipByteOf(store, 'm2');

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect(log.length).toBe(6);
    expect((await log.range(0)).map(messageText)).toEqual(six);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(store.describe(SEGMENT));
    expect(warnings[0]).toMatch(/bytes \d+…\d+ are damaged; event 2 recovered from their event files/);
    await log.close();
    // The repair is in the segment (appended after everything), not only in that instance's memory.
    expect((await readSegment(store)).length).toBeGreaterThan(damaged.length);

    const again = collectWarnings();
    const reopened = await EventLog.open(store, { logger: again.logger });
    expect((await reopened.range(0)).map(messageText)).toEqual(six);
    expect(again.warnings).toEqual([]);
    expect(await reopened.append(userMessageEvent('m6'))).toBe(6);
    const report = await reopened.verifyChain();
    expect(report).toMatchObject({ status: 'verified', length: 7, chainedFrom: 0 });
    await reopened.close();
  });

  it('recovers a damaged run that took two records', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    const bytes = await readSegment(store);
    // From inside event 2's record to inside event 3's: both fail their checksums, one run of damage.
    bytes.fill(0x20, bytes.indexOf('"m2"'), bytes.indexOf('"m3"') + 3);
    await store.write(SEGMENT, bytes);

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(six);
    expect(warnings.join('\n')).toMatch(/events 2, 3 recovered/);
    await log.close();
    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map(messageText)).toEqual(six);
    expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: 6 });
    await reopened.close();
  });

  it('refuses an event file changed since it was derived, naming its index', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    const path = await eventFileOf(store, 2);
    // A valid event of the same id, other text: only the hash chain tells it from the committed one.
    const id = path.slice(path.indexOf('-', 'events/event-'.length) + 1, -'.json'.length);
    await store.write(path, JSON.stringify({ ...JSON.parse(await store.read(path)), llm_message: changed(id) }));
    const segmentBefore = await flipByteOf(store, 'm2');

    const error = await EventLog.open(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ code: 'damaged_segment', missingIndex: 2, unrecovered: [2] });
    expect((error as Error).message).toMatch(/could not restore event 2: missing, or not what the hash chain says/);
    // Nothing written: the segment is as the damage left it.
    expect(await readSegment(store)).toEqual(segmentBefore);
  });

  it('refuses when the event file of the lost event is missing', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    await store.delete(await eventFileOf(store, 2));
    await flipByteOf(store, 'm2');

    await expect(EventLog.open(store)).rejects.toMatchObject({ code: 'damaged_segment', unrecovered: [2] });
  });

  it('recovers a damaged last record from its event file, checked against the link its header still holds', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    await flipByteOf(store, 'm5', 'last');

    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(six);
    expect(warnings).toEqual([expect.stringMatching(/event 5 recovered from their event files/)]);
    expect(await log.append(userMessageEvent('m6'))).toBe(6);
    await log.close();

    const again = collectWarnings();
    const reopened = await EventLog.open(store, { logger: again.logger });
    expect((await reopened.range(0)).map(messageText)).toEqual([...six, 'm6']);
    expect(again.warnings).toEqual([]);
    expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: 7 });
    await reopened.close();
  });

  it('refuses a damaged last record whose header no longer reads, though its event file is there', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    const bytes = await readSegment(store);
    const header = bytes.lastIndexOf('{"chain":1,');
    bytes[header + 2] = 'X'.charCodeAt(0);
    await store.write(SEGMENT, bytes);

    await expect(EventLog.open(store)).rejects.toMatchObject({
      code: 'damaged_segment',
      missingIndex: 5,
      unrecovered: [5],
    });
  });

  it('serves a reader that must not write the recovered events from memory, leaving the segment as it is', async () => {
    const store = await backend.make();
    await closedSegmentLog(store, 6);
    const damaged = await flipByteOf(store, 'm2');

    const { warnings, logger } = collectWarnings();
    const reader = await EventLog.open(store, { logger, rollForward: false, nameIndex: { write: false } });
    expect((await reader.range(0)).map(messageText)).toEqual(six);
    expect(warnings).toEqual([expect.stringMatching(/event 2 recovered .* kept in memory/)]);
    expect(await reader.refresh()).toBe(0);
    await reader.close();
    expect(await readSegment(store)).toEqual(damaged);
  });
});

describe('a repair its store does not keep', () => {
  it('fails the open with DamagedSegmentError instead of appending the repair again and again', async () => {
    const inner = createMemoryFileStore();
    await closedSegmentLog(inner, 4);
    await flipByteOf(inner, 'm1');
    let appends = 0;
    // A faulty backend: appends resolve as if written, and nothing lands.
    const store: FileStore = {
      ...inner,
      async openAppendFile(path) {
        const file = await inner.openAppendFile!(path);
        return {
          ...file,
          append: async () => {
            appends++;
            return (await file.readFrom(0)).length;
          },
          readFrom: (offset, length) => file.readFrom(offset, length),
          close: () => file.close(),
        };
      },
    };

    await expect(EventLog.open(store)).rejects.toMatchObject({ code: 'damaged_segment', missingIndex: 1 });
    expect(appends).toBe(1);
  });
});

function changed(id: string): unknown {
  return { role: 'user', content: [{ type: 'text', text: `not what ${id} said` }] };
}
