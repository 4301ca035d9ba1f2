import { afterEach, describe, expect, it } from 'vitest';
import { computeChainHash } from '../src/chain/chain-link.js';
import { SegmentInvariantError } from '../src/errors/segment-invariant-error.js';
import { SEGMENT_INDEX_MIN_COUNT } from '../src/event-log/segment/segment-index.js';
import { repairRecords } from '../src/event-log/segment/segment-recovery.js';
import { EventLog } from '../src/event-log.js';
import type { AppendFile, FileStore } from '../src/file-store.js';
import { StoreError } from '../src/index.js';
import { closedSegmentLog, damageBackends, readSegment, SEGMENT } from './helpers/damaged-segment.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// The segment layout checks its own repairs before it writes or serves them: what would break the hash chain, or
// point a read at other bytes, is refused with a `SegmentInvariantError` naming the segment and the event.

/** `store`, whose append files change the last byte of what they append while `corrupt.on` (a failing disk). */
function corruptingAppends(store: FileStore): { store: FileStore; corrupt: { on: boolean } } {
  const corrupt = { on: false };
  const wrapFile = (file: AppendFile): AppendFile =>
    new Proxy(file, {
      get(target, key) {
        if (key === 'append') {
          return (data: Uint8Array) => {
            if (!corrupt.on) return target.append(data);
            const changed = Buffer.from(data);
            changed[changed.length - 1] = changed[changed.length - 1]! ^ 0x01;
            return target.append(changed);
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const wrapped = new Proxy(store, {
    get(target, key) {
      if (key === 'openAppendFile') return async (path: string) => wrapFile(await target.openAppendFile!(path));
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, corrupt };
}

describe('repairRecords', () => {
  it('refuses records that would not keep the link their event was verified with, naming the event', () => {
    const json = JSON.stringify({ id: 'e-7', kind: 'message' });
    const prev = 'a'.repeat(64);
    // The hash of another index: records for index 7 after `prev` cannot have it.
    const link = { index: 7, id: 'e-7', prev, hash: computeChainHash(8, prev, json) };
    const damage = {
      run: { offset: 10, end: 20 },
      next: 7,
      prev,
      last: 7,
      nextIntact: undefined,
      damagedLink: undefined,
    };
    const repair = () => repairRecords([{ event: { id: 'e-7' }, json, link }], damage, { writer: 'w', location: 'L' });
    expect(repair).toThrow(SegmentInvariantError);
    const error = (() => {
      try {
        repair();
      } catch (caught) {
        return caught;
      }
    })();
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'segment_invariant', location: 'L' });
    expect((error as SegmentInvariantError).problem).toContain('event 7');
    expect((error as SegmentInvariantError).message).toMatch(/^Segment L: the repair record of event 7 /);
  });
});

describe.each(damageBackends)('a read repair the store does not keep ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it('is refused, naming the segment and the event, and the event is not served from other bytes', async () => {
    const base = await backend.make();
    const texts = Array.from({ length: SEGMENT_INDEX_MIN_COUNT + 4 }, (_, index) => `m${index}`);
    const writer = await EventLog.open(base, { layout: 'segment' });
    await writer.appendMany(texts.map((text) => userMessageEvent(text)));
    await writer.close();
    // Damage inside what the segment index covers: the open adopts the index, the read meets the damage.
    const bytes = await readSegment(base);
    bytes[bytes.indexOf('"m5"') + 2] = 'X'.charCodeAt(0);
    await base.write(SEGMENT, bytes);

    const { store, corrupt } = corruptingAppends(base);
    const log = await EventLog.open(store);
    corrupt.on = true;
    const error = await log.get(5).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SegmentInvariantError);
    expect(error).toMatchObject({ code: 'segment_invariant', location: store.describe(SEGMENT) });
    expect((error as SegmentInvariantError).problem).toMatch(/repair records of event 5 were appended but are not/);
    // The other events read; a store that keeps what it is given repairs it on the next read.
    expect(messageText(await log.get(6))).toBe('m6');
    corrupt.on = false;
    expect(messageText(await log.get(5))).toBe('m5');
    await log.close();
  });
});

describe.each(damageBackends)('an append the store does not keep, after another writer appended ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  it("is refused, naming the segment: the other writer's record is not taken for this append's", async () => {
    const base = await backend.make();
    await closedSegmentLog(base, 3);
    const { store, corrupt } = corruptingAppends(base);
    const first = await EventLog.open(base);
    const second = await EventLog.open(store);
    expect(await first.append(userMessageEvent('m3'))).toBe(3);
    corrupt.on = true;

    const error = await second.append(userMessageEvent('lost')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SegmentInvariantError);
    expect(error).toMatchObject({ code: 'segment_invariant', location: store.describe(SEGMENT) });
    expect((error as SegmentInvariantError).problem).toMatch(/appended but is not in the segment/);
    await first.close();
    await second.close();
    // The changed record left at the end reads as damage to a committed record (nothing tells it from one): the
    // events before it are the first writer's.
    const reopened = await EventLog.open(base, { damagedSegment: 'read-intact-prefix' });
    expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    await reopened.close();
  });
});
