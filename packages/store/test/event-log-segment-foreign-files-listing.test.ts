import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { SEGMENT_INDEX_MIN_COUNT } from '../src/event-log/segment/segment-index.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A long segment log's open need not list its directory for event files the segment does not hold (see
// foreign-event-files.ts) when the directory is unchanged since a close that listed it and found none: that close
// records the directory's listing version in the segment index. Any file written since changes the version.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** The local store, counting its listings of the log's directory. */
function countingListings(root: string): { store: FileStore; listings: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let listings = 0;
  const store: FileStore = {
    ...inner,
    list: (prefix) => {
      if (prefix === 'events') listings++;
      return inner.list(prefix);
    },
    listUnordered: (prefix) => {
      if (prefix === 'events') listings++;
      return inner.listUnordered!(prefix);
    },
  };
  return { store, listings: () => listings };
}

const COUNT = SEGMENT_INDEX_MIN_COUNT + 10;

async function longLog(): Promise<{ root: string; ids: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-foreign-listing-'));
  roots.push(root);
  const events = Array.from({ length: COUNT }, (_, k) => userMessageEvent(`x ${k}`));
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
  for (let from = 0; from < COUNT; from += 256) await log.appendMany(events.slice(from, from + 256));
  await log.close();
  return { root, ids: events.map((event) => event.id) };
}

describe('EventLog segment layout: looking for event files the segment does not hold', () => {
  it('is skipped by an open of a directory unchanged since a close that found none', async () => {
    const { root } = await longLog();
    const { store, listings } = countingListings(root);
    const log = await EventLog.open(store);
    expect(log.length).toBe(COUNT);
    expect(listings()).toBe(0);
    await log.close();
  });

  it('is not skipped once the reference appended a file after that close: the file is taken', async () => {
    const { root, ids } = await longLog();
    const theirs = userMessageEvent('reference');
    await writeFile(join(root, 'events', eventFileName(COUNT, theirs.id)), JSON.stringify(theirs));
    const { store, listings } = countingListings(root);
    const log = await EventLog.open(store);
    expect(listings()).toBe(1);
    expect(log.length).toBe(COUNT + 1);
    expect(log.idAt(COUNT)).toBe(theirs.id);
    expect(log.idAt(0)).toBe(ids[0]);
    await log.close();
  });

  it('is not skipped after a close that found one written while the log was open: the next open takes it', async () => {
    const { root } = await longLog();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    const theirs = userMessageEvent('reference while open');
    await writeFile(join(root, 'events', eventFileName(COUNT, theirs.id)), JSON.stringify(theirs));
    await log.close();
    const reopened = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    expect(reopened.length).toBe(COUNT + 1);
    expect(reopened.idAt(COUNT)).toBe(theirs.id);
    await reopened.close();
  });
});
