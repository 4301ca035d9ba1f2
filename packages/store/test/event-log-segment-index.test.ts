import { mkdtemp, open, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEGMENT_INDEX_EVERY, SEGMENT_INDEX_MIN_COUNT } from '../src/event-log/segment/segment-index.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { startAppendWorker } from './helpers/children.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { referenceView } from './helpers/reference-view.js';
import { collectWarnings } from './helpers/segment-stores.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const SEGMENT = 'events/.slots/segment';
const INDEX = 'events/.slots/segment-index';

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-index-'));
  roots.push(root);
  return root;
}

/** The local store, with the bytes read from the segment counted (the hook the open's cost is measured by). */
function countingStore(root: string): { store: FileStore; bytesRead: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let bytes = 0;
  const store: FileStore = {
    ...inner,
    openAppendFile: async (path) => {
      const file = await inner.openAppendFile!(path);
      return {
        append: (data) => file.append(data),
        readFrom: async (offset, length) => {
          const read = await file.readFrom(offset, length);
          bytes += read.length;
          return read;
        },
        close: () => file.close(),
      };
    },
  };
  return { store, bytesRead: () => bytes };
}

const texts = (from: number, count: number) => Array.from({ length: count }, (_, k) => `event ${from + k}`);

/** A segment log of `count` events closed by its writer (which writes its index). */
async function closedLog(root: string, count: number): Promise<void> {
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
  await log.appendMany(texts(0, count).map((text) => userMessageEvent(text)));
  await log.close();
}

async function indexHeader(root: string): Promise<{ count: number; size: number; last: { offset: number } }> {
  const text = await readFile(join(root, INDEX), 'utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n')));
}

/** The count in the index's header (its first bytes only: it is polled while being rewritten), 0 without one. */
async function indexedCount(root: string): Promise<number> {
  const file = await open(join(root, INDEX)).catch(() => undefined);
  if (file === undefined) return 0;
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(512), 0, 512, 0);
    return Number(/"count":(\d+)/.exec(buffer.subarray(0, bytesRead).toString())?.[1] ?? 0);
  } finally {
    await file.close();
  }
}

/** The log's events, read by an instance that reads the whole segment (its index moved away meanwhile). */
async function wholeRead(root: string): Promise<string[]> {
  const index = join(root, INDEX);
  const aside = `${index}.aside`;
  const had = await stat(index).then(
    () => true,
    () => false,
  );
  if (had) await rename(index, aside);
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { rollForward: false });
  const events = (await log.range(0)).map((event) => event.id);
  if (had) await rename(aside, index);
  return events;
}

describe('the segment index', () => {
  it('makes an open read only the records after it, and those another writer appended since', async () => {
    const root = await newRoot();
    const count = SEGMENT_INDEX_MIN_COUNT + 100;
    await closedLog(root, count);
    const header = await indexHeader(root);
    expect(header.count).toBe(count);
    // Another writer appends after the index was written, and does not close (the index stays as it was).
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    await other.appendMany(texts(count, 5).map((text) => userMessageEvent(text)));
    expect((await indexHeader(root)).count).toBe(count);
    const size = (await stat(join(root, SEGMENT))).size;

    const { store, bytesRead } = countingStore(root);
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    // The index's last record (checked) and the records after it: nothing before.
    expect(bytesRead()).toBe(size - header.last.offset);
    expect(bytesRead()).toBeLessThan(size / 100);
    expect(log.length).toBe(count + 5);
    expect(messageText(await log.get(0))).toBe('event 0');
    expect(messageText(await log.get(count - 1))).toBe(`event ${count - 1}`);
    expect(messageText(await log.get(count + 4))).toBe(`event ${count + 4}`);
    expect(log.indexOf((await log.get(17)).id)).toBe(17);
    expect(await log.append(userMessageEvent('after'))).toBe(count + 5);
    expect(warnings).toEqual([]);
    await log.close();
    expect((await indexHeader(root)).count).toBe(count + 6);
    expect((await log.range(0)).map((event) => event.id)).toEqual(await wholeRead(root));
  });

  it('is not written for a short log, and an open without one reads the whole segment', async () => {
    const root = await newRoot();
    await closedLog(root, 10);
    expect(await stat(join(root, INDEX)).catch(() => undefined)).toBeUndefined();
    const { store, bytesRead } = countingStore(root);
    const log = await EventLog.open(store);
    expect(bytesRead()).toBe((await stat(join(root, SEGMENT))).size);
    expect(log.length).toBe(10);
  });

  it('is rewritten every SEGMENT_INDEX_EVERY events by a writer that does not close', async () => {
    const root = await newRoot();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), {
      layout: 'segment',
      awaitEventFiles: true,
    });
    await log.appendMany(texts(0, SEGMENT_INDEX_EVERY).map((text) => userMessageEvent(text)));
    expect((await indexHeader(root)).count).toBe(SEGMENT_INDEX_EVERY);
    await log.appendMany(texts(SEGMENT_INDEX_EVERY, 10).map((text) => userMessageEvent(text)));
    expect((await indexHeader(root)).count).toBe(SEGMENT_INDEX_EVERY);
  });

  const damages: [string, (root: string) => Promise<void>][] = [
    ['cut short', async (root) => truncate(join(root, INDEX), Math.floor((await stat(join(root, INDEX))).size / 2))],
    ['empty (as a power loss may leave it)', (root) => truncate(join(root, INDEX), 0)],
    [
      'damaged in its positions',
      async (root) => {
        const text = await readFile(join(root, INDEX), 'utf8');
        // The second event's offset (the first's low bytes are zeros, as in "AAAA…").
        const start = text.indexOf('\n') + 1 + 24;
        await writeFile(join(root, INDEX), `${text.slice(0, start)}////${text.slice(start + 4)}`);
      },
    ],
    [
      'for a segment that was cut short since (its last record gone)',
      async (root) => truncate(join(root, SEGMENT), (await indexHeader(root)).last.offset + 20),
    ],
    [
      'for a segment whose last covered record was changed since (a power loss left its end as zeros)',
      async (root) => {
        const segment = await readFile(join(root, SEGMENT));
        const { size } = await indexHeader(root);
        // Zeros, not a flipped byte: a committed record changed otherwise fails the open (DamagedSegmentError).
        segment.fill(0, size - 3, size);
        await writeFile(join(root, SEGMENT), segment);
      },
    ],
    [
      "of another log (stale: another segment's index)",
      async (root) => {
        const elsewhere = await newRoot();
        await closedLog(elsewhere, SEGMENT_INDEX_MIN_COUNT + 50);
        await writeFile(join(root, INDEX), await readFile(join(elsewhere, INDEX)));
      },
    ],
  ];

  it.each(damages)('is ignored when %s: the segment is read whole, and the index written again', async (_, damage) => {
    const root = await newRoot();
    await closedLog(root, SEGMENT_INDEX_MIN_COUNT + 20);
    await damage(root);
    // A record cut from the segment's end left its event file: the reference still reads that event, and a writer's
    // open takes it back into the segment from its file (see foreign-event-files.ts), so the log is what the
    // reference reads; the segment read whole without the index (a reader, which takes nothing) is a prefix of it.
    const expected = await referenceView(root);
    const segmentRead = await wholeRead(root);
    expect(expected.slice(0, segmentRead.length)).toEqual(segmentRead);
    const size = (await stat(join(root, SEGMENT))).size;
    const { store, bytesRead } = countingStore(root);
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect(warnings.join('\n')).toMatch(/\.slots\/segment-index: .*ignored, the segment is read whole/);
    expect(bytesRead()).toBeGreaterThanOrEqual(size);
    expect((await log.range(0)).map((event) => event.id)).toEqual(expected);
    await log.close();
    if (expected.length >= SEGMENT_INDEX_MIN_COUNT) {
      expect((await indexHeader(root)).count).toBe(expected.length);
      const again = collectWarnings();
      const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), again);
      expect(reopened.length).toBe(expected.length);
      expect(again.warnings.filter((warning) => warning.includes('.slots/segment-index'))).toEqual([]);
    }
  });

  it('leaves a log that opens correctly when its writer is killed (SIGKILL) while writing indices', async () => {
    const root = await newRoot();
    const worker = startAppendWorker({ root, label: 'killed', count: 'loop', batch: 512, layout: 'segment' });
    // Killed once it has written an index or two: it rewrites one every SEGMENT_INDEX_EVERY events while it
    // appends (a 512-event batch is a few ms here), so the kill lands mid-write often, and anywhere is correct.
    await worker.ready;
    while ((await indexedCount(root)) < 2 * SEGMENT_INDEX_EVERY) {
      if (worker.child.exitCode !== null) throw new Error(`the worker ended: ${(await worker.exited).stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { logger });
    expect(log.length).toBeGreaterThanOrEqual(worker.acks.size);
    for (const [index, id] of worker.acks) expect(log.indexOf(id)).toBe(index);
    expect((await log.range(0)).map((event) => event.id)).toEqual(await wholeRead(root));
    expect(warnings.filter((warning) => warning.includes('.slots/segment-index'))).toEqual([]);
    await log.close();
  });
});
