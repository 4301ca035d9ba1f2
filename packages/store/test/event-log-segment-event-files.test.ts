import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { SIZE_CHUNK } from '../src/event-log/segment/derived-event-files.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { collectWarnings, instrumentedStore } from './helpers/segment-stores.js';

// The event files a segment log derives (src/event-log/segment/derived-event-files.ts): which of them its close
// records in the segment index as whole (`files.count`), so the next open skips checking them. A file that failed
// to be written is not among them, and is rebuilt by the next open; files this instance wrote after another
// writer's events are counted once the check at close got past those.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const INDEX = 'events/.slots/segment-index';
const COUNT = 1100;
const events = Array.from({ length: COUNT + 500 }, (_, k) => userMessageEvent(`event ${k}`));
const eventPath = (root: string, index: number) => join(root, 'events', eventFileName(index, events[index]!.id));

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-event-files-'));
  roots.push(root);
  return root;
}

async function filesCount(root: string): Promise<number | undefined> {
  const text = await readFile(join(root, INDEX), 'utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n'))).files?.count;
}

describe("EventLog segment layout: eventFiles 'each-commit'", () => {
  it('has written every event file when the append resolves', async () => {
    const root = await newRoot();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
    await log.append(events[0]!);
    await log.appendMany(events.slice(1, 4));
    for (let index = 0; index < 4; index++) {
      expect(JSON.parse(await readFile(eventPath(root, index), 'utf8'))).toMatchObject({ id: events[index]!.id });
    }
    await log.close();
  });
});

describe('EventLog segment layout: the derived event files a close records as whole', () => {
  it('stop before a file that failed to be written; the next open rebuilds it', async () => {
    const root = await newRoot();
    const failed = `events/${eventFileName(700, events[700]!.id)}`;
    const { store, sized } = instrumentedStore(root, (path) => path === failed);
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { layout: 'segment', logger });
    for (let from = 0; from < COUNT; from += 100) await log.appendMany(events.slice(from, from + 100));
    expect(warnings.join('\n')).toMatch(/disk full; the event is kept in the segment and its file is rebuilt/);
    await log.close();
    await expect(readFile(eventPath(root, 700))).rejects.toMatchObject({ code: 'ENOENT' });
    // The batch holding it failed whole: the close looked from its first file on (one chunk), found it missing,
    // and stopped there.
    expect(sized()).toBe(SIZE_CHUNK);
    expect(await filesCount(root)).toBe(700);

    const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    await reopened.close();
    for (const index of [700, 799]) {
      expect(JSON.parse(await readFile(eventPath(root, index), 'utf8'))).toMatchObject({ id: events[index]!.id });
    }
    expect(await filesCount(root)).toBe(COUNT);
  });

  it("count the files written after another writer's event once the close's check gets past it", async () => {
    const root = await newRoot();
    const { store, sized } = instrumentedStore(root);
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.appendMany(events.slice(0, COUNT));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { awaitEventFiles: true });
    await other.append(events[COUNT]!);
    await other.close();
    // Appended after the other writer's event (learned on the way): files COUNT+1… are written by this instance.
    expect(await log.appendMany(events.slice(COUNT + 1, COUNT + 400))).toEqual(
      Array.from({ length: 399 }, (_, k) => COUNT + 1 + k),
    );
    expect(sized()).toBe(0);
    await log.close();
    // One chunk from the other writer's file on: the files after it this instance wrote need no look.
    expect(sized()).toBe(SIZE_CHUNK);
    expect(await filesCount(root)).toBe(COUNT + 400);
  });

  it("include the file of the log's last event, another writer's", async () => {
    const root = await newRoot();
    const { store } = instrumentedStore(root);
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.appendMany(events.slice(0, COUNT));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { awaitEventFiles: true });
    await other.append(events[COUNT]!);
    await other.close();
    await log.refresh();
    await log.close();
    expect(await filesCount(root)).toBe(COUNT + 1);
  });

  it("stop at the missing file of another writer's event after this instance's own", async () => {
    const root = await newRoot();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
    // An odd count: the files written by this instance end at an odd index.
    await log.appendMany(events.slice(0, COUNT + 1));
    const stopped = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { eventFiles: 'at-close' });
    await stopped.append(events[COUNT + 1]!);
    await log.refresh();
    await log.close();
    await expect(readFile(eventPath(root, COUNT + 1))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await filesCount(root)).toBe(COUNT + 1);
    const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    await reopened.close();
    expect(JSON.parse(await readFile(eventPath(root, COUNT + 1), 'utf8'))).toMatchObject({ id: events[COUNT + 1]!.id });
    expect(await filesCount(root)).toBe(COUNT + 2);
  });

  it('are not looked at by the close of a reader that does not write to the directory (rollForward: false)', async () => {
    const root = await newRoot();
    const writer = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
    await writer.appendMany(events.slice(0, COUNT));
    // No index yet (the writer has not closed): a reader knows none of the files whole, and records nothing.
    const { store, sized } = instrumentedStore(root);
    const reader = await EventLog.open(store, { rollForward: false });
    expect(reader.length).toBe(COUNT);
    await reader.close();
    expect(sized()).toBe(0);
    await writer.close();
  });

  it('are not looked at by the close of a log too short for an index', async () => {
    const root = await newRoot();
    const { store, sized } = instrumentedStore(root);
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.appendMany(events.slice(0, 5));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { awaitEventFiles: true });
    await other.append(events[5]!);
    await other.close();
    await log.appendMany(events.slice(6, 10));
    await log.close();
    expect(sized()).toBe(0);
    await expect(readFile(join(root, INDEX))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
