import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// The segment index's `files` count (event files seen whole) lies in its header, outside its checksum: an open trusts
// it only up to the events the index covers, so a damaged count never stops it checking (and rebuilding) the event
// files of events appended after the index was written.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const INDEX = 'events/.slots/segment-index';
const COUNT = 1100;
const events = Array.from({ length: COUNT + 10 }, (_, k) => userMessageEvent(`event ${k}`));
const eventPath = (root: string, index: number) => join(root, 'events', eventFileName(index, events[index]!.id));

describe('EventLog segment layout: the checked files an index claims', () => {
  it('are trusted only up to the events the index covers', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-segment-checked-bounds-'));
    roots.push(root);
    const store = createLocalFileStore({ root, durability: 'none' });
    const writer = await EventLog.open(store, { layout: 'segment' });
    await writer.appendMany(events.slice(0, COUNT));
    await writer.close();
    // A writer that holds its event files until close, and stops before it: its events are committed, their files
    // missing.
    const stopped = await EventLog.open(store, { eventFiles: 'at-close' });
    await stopped.appendMany(events.slice(COUNT));
    await expect(readFile(eventPath(root, COUNT + 3))).rejects.toMatchObject({ code: 'ENOENT' });

    const text = await readFile(join(root, INDEX), 'utf8');
    const end = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, end));
    expect(header).toMatchObject({ count: COUNT, files: { count: COUNT } });
    header.files.count = COUNT + 1000;
    await writeFile(join(root, INDEX), `${JSON.stringify(header)}${text.slice(end)}`);

    const log = await EventLog.open(store);
    expect(log.length).toBe(COUNT + 10);
    await log.close();
    for (let index = COUNT; index < COUNT + 10; index++) {
      expect(JSON.parse(await readFile(eventPath(root, index), 'utf8'))).toMatchObject({ id: events[index]!.id });
    }
  });
});
