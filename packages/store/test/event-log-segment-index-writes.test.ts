import { mkdtemp, readFile, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEGMENT_INDEX_MIN_COUNT } from '../src/event-log/segment/segment-index.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// When a segment log writes its segment index: only for logs of SEGMENT_INDEX_MIN_COUNT events or more, only by an
// instance that writes the directory, at an open that found none, not at an open whose index is current but for a
// short tail (the close writes it then). `awaitEventFiles` makes the open and appends wait for what they write.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const INDEX = 'events/.slots/segment-index';

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-index-writes-'));
  roots.push(root);
  return root;
}

/** The local store, with the writes of the segment index counted. */
function countingStore(root: string): { store: FileStore; indexWrites: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let writes = 0;
  const store: FileStore = {
    ...inner,
    writeRebuildable: (files) => {
      writes += files.filter((file) => file.path === INDEX).length;
      return inner.writeRebuildable!(files);
    },
  };
  return { store, indexWrites: () => writes };
}

const events = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => userMessageEvent(`event ${from + k}`));

async function indexCount(root: string): Promise<number | undefined> {
  const text = await readFile(join(root, INDEX), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : JSON.parse(text.slice(0, text.indexOf('\n'))).count;
}

async function closedLog(root: string, count: number): Promise<void> {
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
  await log.appendMany(events(0, count));
  await log.close();
}

describe('the segment index is written', () => {
  it('for a log of SEGMENT_INDEX_MIN_COUNT events, not one fewer', async () => {
    const root = await newRoot();
    await closedLog(root, SEGMENT_INDEX_MIN_COUNT - 1);
    expect(await indexCount(root)).toBeUndefined();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { awaitEventFiles: true });
    await log.append(userMessageEvent('last'));
    expect(await indexCount(root)).toBeUndefined();
    await log.close();
    expect(await indexCount(root)).toBe(SEGMENT_INDEX_MIN_COUNT);
  });

  it('by an open that finds none for a long log, before it resolves', async () => {
    const root = await newRoot();
    await closedLog(root, SEGMENT_INDEX_MIN_COUNT + 10);
    await unlink(join(root, INDEX));
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { awaitEventFiles: true });
    expect(await indexCount(root)).toBe(SEGMENT_INDEX_MIN_COUNT + 10);
    await log.close();
  });

  it('not by an open whose index covers all but a short tail: the close writes it', async () => {
    const root = await newRoot();
    await closedLog(root, SEGMENT_INDEX_MIN_COUNT + 10);
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { awaitEventFiles: true });
    await other.appendMany(events(SEGMENT_INDEX_MIN_COUNT + 10, 5));
    expect(await indexCount(root)).toBe(SEGMENT_INDEX_MIN_COUNT + 10);
    const { store, indexWrites } = countingStore(root);
    const log = await EventLog.open(store, { awaitEventFiles: true });
    expect(log.length).toBe(SEGMENT_INDEX_MIN_COUNT + 15);
    expect(indexWrites()).toBe(0);
    await log.close();
    expect(indexWrites()).toBe(1);
    expect(await indexCount(root)).toBe(SEGMENT_INDEX_MIN_COUNT + 15);
    // Nothing new since: the next open and close leave it alone.
    const again = await EventLog.open(store, { awaitEventFiles: true });
    await again.close();
    expect(indexWrites()).toBe(1);
  });

  it('not by a reader that does not roll forward, nor by a log told not to write indices', async () => {
    const root = await newRoot();
    await closedLog(root, SEGMENT_INDEX_MIN_COUNT + 10);
    await unlink(join(root, INDEX));
    const store = createLocalFileStore({ root, durability: 'none' });
    const reader = await EventLog.open(store, { rollForward: false, awaitEventFiles: true });
    expect((await reader.range(0)).length).toBe(SEGMENT_INDEX_MIN_COUNT + 10);
    await reader.close();
    const quiet = await EventLog.open(store, { nameIndex: { write: false }, awaitEventFiles: true });
    await quiet.append(userMessageEvent('more'));
    await quiet.close();
    await expect(stat(join(root, INDEX))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
