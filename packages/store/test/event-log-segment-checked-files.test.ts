import { cp, mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// The open's check of the derived event files (an lstat each, to rebuild what a crash or power loss left missing or
// cut short) skips the files the segment index says were seen whole in the same scope (this boot, this segment's
// inode); everything else is checked and repaired from the segment as before.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const INDEX = 'events/.slots/segment-index';
const COUNT = 1100;

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-checked-'));
  roots.push(root);
  return root;
}

/** The local store, with the paths `fileSizes` was asked about counted. */
function countingStore(root: string): { store: FileStore; sized: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let sized = 0;
  const store: FileStore = {
    ...inner,
    fileSizes: (paths) => {
      sized += paths.length;
      return inner.fileSizes!(paths);
    },
  };
  return { store, sized: () => sized };
}

const events = Array.from({ length: COUNT + 10 }, (_, k) => userMessageEvent(`event ${k}`));
const eventPath = (root: string, index: number) => join(root, 'events', eventFileName(index, events[index]!.id));

/**
 * A segment log of COUNT events closed by its writer (which writes its index, with the files it checked or wrote);
 * how many event files the writer lstat'ed.
 */
async function closedLog(root: string, eventFiles: 'each-commit' | 'batched' = 'each-commit'): Promise<number> {
  const { store, sized } = countingStore(root);
  const log = await EventLog.open(store, { layout: 'segment', eventFiles });
  for (let from = 0; from < COUNT; from += 100) await log.appendMany(events.slice(from, from + 100));
  await log.close();
  return sized();
}

async function indexHeader(root: string): Promise<{ count: number; files?: { scope: string; count: number } }> {
  const text = await readFile(join(root, INDEX), 'utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n')));
}

/** Rewrites the index header's `files.scope` (the header is outside the index's checksum), as a reboot changes it. */
async function setIndexScope(root: string, scope: string): Promise<void> {
  const text = await readFile(join(root, INDEX), 'utf8');
  const end = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, end));
  header.files.scope = scope;
  await writeFile(join(root, INDEX), `${JSON.stringify(header)}${text.slice(end)}`);
}

/** Opens and closes the log (close waits for the open's check and what it rebuilt). */
async function openAndClose(store: FileStore): Promise<void> {
  const log = await EventLog.open(store);
  expect(log.length).toBeGreaterThanOrEqual(COUNT);
  await log.close();
}

describe('EventLog segment layout: the event files checked on open', () => {
  it.each(['each-commit', 'batched'] as const)(
    'records in the index, at close, the event files its writer wrote (%s): no lstat of them',
    async (eventFiles) => {
      const root = await newRoot();
      expect(await closedLog(root, eventFiles)).toBe(0);
      expect((await indexHeader(root)).files?.count).toBe(COUNT);
    },
  );

  it('records in the index, at close, the event files seen whole, and an open in the same scope skips them', async () => {
    const root = await newRoot();
    await closedLog(root);
    const header = await indexHeader(root);
    expect(header.files).toMatchObject({ count: COUNT });
    expect(header.files?.scope).toMatch(/\S/);
    const { store, sized } = countingStore(root);
    await openAndClose(store);
    expect(sized()).toBe(0);
  });

  it('checks each event file once when the index is of another boot and all are whole, and records them', async () => {
    const root = await newRoot();
    await closedLog(root);
    await setIndexScope(root, 'another-boot');
    const { store, sized } = countingStore(root);
    await openAndClose(store);
    // The open's check found them whole: close does not lstat them again, and the index it writes says so.
    expect(sized()).toBe(COUNT);
    const header = await indexHeader(root);
    expect(header.files?.count).toBe(COUNT);
    expect(header.files?.scope).not.toBe('another-boot');
  });

  it('rebuilds event files a power loss cut short or dropped: the index of another boot is not trusted', async () => {
    const root = await newRoot();
    await closedLog(root);
    const intact = [await readFile(eventPath(root, 5)), await readFile(eventPath(root, 700))];
    await setIndexScope(root, 'another-boot:1:2');
    await truncate(eventPath(root, 5), 10);
    await unlink(eventPath(root, 700));
    const { store, sized } = countingStore(root);
    await openAndClose(store);
    expect(sized()).toBe(COUNT);
    expect([await readFile(eventPath(root, 5)), await readFile(eventPath(root, 700))]).toEqual(intact);
    // Checked in this boot now: the next open skips them again.
    const header = await indexHeader(root);
    expect(header.files?.scope).not.toBe('another-boot:1:2');
    expect(header.files?.count).toBe(COUNT);
  });

  it('rebuilds event files of a copy of the log (another inode), whatever the index says', async () => {
    const root = await newRoot();
    await closedLog(root);
    const copy = await newRoot();
    await cp(join(root, 'events'), join(copy, 'events'), { recursive: true });
    const intact = await readFile(eventPath(copy, 42));
    await truncate(eventPath(copy, 42), 0);
    await openAndClose(createLocalFileStore({ root: copy, durability: 'none' }));
    expect(await readFile(eventPath(copy, 42))).toEqual(intact);
  });

  it('checks and rebuilds the event files after those the index counts (a writer that stopped before writing them)', async () => {
    const root = await newRoot();
    await closedLog(root);
    // A writer that holds its event files until close, and stops (a crash) before it: its events are committed.
    const stopped = await EventLog.open(createLocalFileStore({ root, durability: 'fsync' }), {
      layout: 'segment',
      eventFiles: 'at-close',
    });
    await stopped.appendMany(events.slice(COUNT, COUNT + 10));
    await expect(readFile(eventPath(root, COUNT + 3))).rejects.toMatchObject({ code: 'ENOENT' });
    // A file left cut short beside them (this package writes by rename; another writer of the directory may not).
    await writeFile(eventPath(root, COUNT + 4), serializeEvent(events[COUNT + 4]!).slice(0, 40));
    const { store, sized } = countingStore(root);
    await openAndClose(store);
    expect(sized()).toBe(10);
    for (let index = COUNT; index < COUNT + 10; index++) {
      expect(JSON.parse(await readFile(eventPath(root, index), 'utf8'))).toMatchObject({ id: events[index]!.id });
    }
    expect((await indexHeader(root)).files?.count).toBe(COUNT + 10);
  });
});
