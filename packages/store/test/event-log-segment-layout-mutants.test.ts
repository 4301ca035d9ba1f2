import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { collectWarnings } from './helpers/segment-stores.js';

// How `EventLog.open` chooses a log's layout (src/event-log/segment/segment-layout.ts), in what a caller sees: the
// warning that names why a log asked to be a segment log is not one.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function localStore(): Promise<FileStore> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-layout-'));
  roots.push(root);
  return createLocalFileStore({ root, durability: 'none' });
}

describe('EventLog.open with the segment layout, on a log that already holds events', () => {
  it('warns with the number of events that keep it file-per-event', async () => {
    const store = await localStore();
    const classic = await EventLog.open(store);
    await classic.append(userMessageEvent('old 0'));
    await classic.append(userMessageEvent('old 1'));
    await classic.close();
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { layout: 'segment', logger });
    expect(warnings).toEqual([
      `${store.describe('events')}: the log already holds 2 events in the file-per-event layout; it keeps that layout`,
    ]);
    await log.close();
  });

  it('warns about the files it ignores, as any open of that log does', async () => {
    const store = await localStore();
    const classic = await EventLog.open(store);
    await classic.append(userMessageEvent('old'));
    await classic.close();
    await store.write('events/notes.txt', 'not an event');
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { layout: 'segment', logger });
    expect(log.length).toBe(1);
    expect(warnings).toContain(`${store.describe('events/notes.txt')}: not an event file name, ignored`);
    await log.close();
  });
});

describe('EventLog.open of a segment log through a store that cannot append to a file', () => {
  it("reads it from the reference's event files its writer derived", async () => {
    const memory = createMemoryFileStore();
    const writer = await EventLog.open(memory, { layout: 'segment' });
    await writer.appendMany([userMessageEvent('first'), userMessageEvent('second')]);
    await writer.close();
    // A copy on a store such as S3, which has no append: the segment is there, but only its event files are usable.
    const { openAppendFile: _, ...withoutAppend } = memory;
    const reader = await EventLog.open(withoutAppend as FileStore);
    expect(reader.length).toBe(2);
    expect(messageText(await reader.get(1))).toBe('second');
    await reader.close();
  });
});
