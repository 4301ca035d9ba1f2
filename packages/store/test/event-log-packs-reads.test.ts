import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { EventLog, type EventLogOptions } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

/**
 * Which reads the packed read cache makes (`packs.ts`): a pack only when enough of a chunk's events are wanted and
 * not cached, the pack of a chunk a reader stopped inside kept for its next batch, and the next chunk's pack read
 * ahead of a reader that reached the end of one. Each is a store read more or less, so the paths a reader reads
 * are what is pinned here (the events are the files' in every case: `event-log-packs-equivalence.test.ts`).
 */

/** The store with every path read, in order (`read` and `readBatch` alike), shortened to `packs/…` or `event …`. */
function recording(inner: FileStore): { store: FileStore; reads: string[] } {
  const reads: string[] = [];
  const short = (path: string) =>
    path.includes('/.slots/packs/') ? `pack ${path.slice(-10, -5)}` : `event ${path.slice(13, 18)}`;
  const store = Object.create(inner) as FileStore;
  store.read = (path) => {
    reads.push(short(path));
    return inner.read(path);
  };
  store.readBatch = (paths) => {
    reads.push(...paths.map(short));
    return inner.readBatch!(paths);
  };
  return { store, reads };
}

/** A memory log of `count` messages whose appender packed every complete chunk. */
async function packedLog(count: number, chunkSize: number): Promise<{ store: FileStore; events: AnyEvent[] }> {
  const store = createMemoryFileStore();
  const writer = await EventLog.open(store, { packs: { chunkSize } });
  const events: AnyEvent[] = [];
  for (let index = 0; index < count; index++) {
    const event = userMessageEvent(`message ${index}`);
    await writer.append(event);
    events.push(event);
  }
  await writer.close();
  return { store, events };
}

async function reader(store: FileStore, chunkSize: number, options: EventLogOptions = {}) {
  const recorded = recording(store);
  const log = await EventLog.open(recorded.store, { packs: { chunkSize, write: false }, ...options });
  recorded.reads.length = 0;
  return { log, reads: recorded.reads };
}

const ids = (events: readonly AnyEvent[]) => events.map((event) => event.id);

describe('packed reads: which reads a reader makes', () => {
  it('keeps the pack of the chunk it stopped inside for its next batches, even with no LRU cache', async () => {
    const { store, events } = await packedLog(24, 8);
    const { log, reads } = await reader(store, 8, { cacheSize: 0 });
    const read: AnyEvent[] = [];
    for (const [from, to] of [
      [0, 3],
      [3, 7],
      [7, 8],
    ] as const) {
      read.push(...(await log.range(from, to)));
    }
    expect(ids(read)).toEqual(ids(events.slice(0, 8)));
    // One pack read for the three batches (none read ahead: the chunk's pack was not read to its end at once).
    expect(reads).toEqual(['pack 00000']);
    expect(ids(await log.range(8, 12))).toEqual(ids(events.slice(8, 12)));
    expect(reads).toEqual(['pack 00000', 'pack 00008']);
    expect(ids(await log.range(12, 16))).toEqual(ids(events.slice(12, 16)));
    expect(reads).toEqual(['pack 00000', 'pack 00008']);
  });

  it('reads the files of fewer wanted, uncached events than the chunk size makes worth a pack read', async () => {
    // Chunks of 16: a pack read is worth it from 2 wanted events (see packThresholds).
    const { store, events } = await packedLog(32, 16);
    const { log, reads } = await reader(store, 16, { cacheSize: 0 });
    expect(ids(await log.range(3, 4))).toEqual(ids(events.slice(3, 4)));
    expect(reads).toEqual(['event 00003']);
    expect(ids(await log.range(20, 22))).toEqual(ids(events.slice(20, 22)));
    expect(reads).toEqual(['event 00003', 'pack 00016']);
  });

  it('counts only the uncached events: a chunk mostly in the cache is completed from files', async () => {
    const { store, events } = await packedLog(16, 16);
    const { log, reads } = await reader(store, 16);
    // 15 events cached by file reads one at a time (below the 2 a pack read needs)...
    for (let index = 0; index < 15; index++) await log.get(index);
    expect(reads).toHaveLength(15);
    reads.length = 0;
    // ...so reading the chunk whole wants one uncached event: its file.
    expect(ids(await log.range(0, 16))).toEqual(ids(events));
    expect(reads).toEqual(['event 00015']);
  });

  it('reads the next pack ahead only when the next chunk has events enough to be packed', async () => {
    // Chunks of 8 (a pack read from 1 event): 2 packed chunks, and a tail of 1 event, not packed.
    const { store, events } = await packedLog(17, 8);
    const { log, reads } = await reader(store, 8, { cacheSize: 0 });
    expect(ids(await log.range(0, 8))).toEqual(ids(events.slice(0, 8)));
    expect(reads).toEqual(['pack 00000', 'pack 00008']);
    expect(ids(await log.range(8, 16))).toEqual(ids(events.slice(8, 16)));
    // The tail chunk has 1 event, as many as a pack read needs: looked for ahead (it is missing).
    expect(reads).toEqual(['pack 00000', 'pack 00008', 'pack 00016']);
    expect(ids(await log.range(16, 17))).toEqual(ids(events.slice(16)));
    expect(reads).toEqual(['pack 00000', 'pack 00008', 'pack 00016', 'event 00016']);

    // Chunks of 16 (from 2 events): a tail of 1 event is not looked for, ahead or at its turn.
    const short = await packedLog(17, 16);
    const second = await reader(short.store, 16, { cacheSize: 0 });
    expect(ids(await second.log.range(0, 17))).toEqual(ids(short.events));
    expect(second.reads).toEqual(['pack 00000', 'event 00016']);
  });

  it('warns when a pack cannot be read (not missing), reads the files, and does not read it again', async () => {
    const { store: inner, events } = await packedLog(16, 8);
    const store = Object.create(inner) as FileStore;
    store.readBatch = undefined;
    const failed: string[] = [];
    store.read = async (path) => {
      if (!path.endsWith('.pack')) return inner.read(path);
      failed.push(path);
      throw new Error('disk on fire');
    };
    const messages: string[] = [];
    const log = await EventLog.open(store, {
      packs: { chunkSize: 8, write: false },
      cacheSize: 0,
      logger: { warn: (message) => messages.push(message) },
    });
    expect(ids(await log.range(0, 8))).toEqual(ids(events.slice(0, 8)));
    expect(ids(await log.range(0, 8))).toEqual(ids(events.slice(0, 8)));
    expect(failed).toEqual(['events/.slots/packs/00000.pack']);
    expect(messages).toEqual([
      `${inner.describe('events/.slots/packs/00000.pack')}: packed read cache not readable (disk on fire)`,
    ]);
  });
});
