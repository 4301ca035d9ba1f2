import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A segment log holds one descriptor of its segment while open and none after `close` (so the directory can be
// removed or copied), and opens it again when used after close.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** This process's descriptors open on `path`. */
function descriptorsOn(path: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // Closed while listed (the listing's own descriptor among them).
    }
  }
  return count;
}

describe.runIf(process.platform === 'linux')('segment log descriptors', () => {
  it('holds one descriptor of its segment while open, none after close, and reopens on use', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-segment-fd-'));
    roots.push(root);
    const segment = join(root, 'events/.slots/segment');
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.appendMany([userMessageEvent('a'), userMessageEvent('b')]);
    expect(messageText(await log.get(0))).toBe('a');
    expect(descriptorsOn(segment)).toBe(1);
    await log.close();
    expect(descriptorsOn(segment)).toBe(0);

    const reader = await EventLog.open(store);
    expect(messageText(await reader.get(1))).toBe('b');
    expect(descriptorsOn(segment)).toBe(1);
    await reader.close();
    expect(descriptorsOn(segment)).toBe(0);
  });

  it('holds none after an open that fails on a damaged segment', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-segment-fd-'));
    roots.push(root);
    const segment = join(root, 'events/.slots/segment');
    const store = createLocalFileStore({ root, durability: 'none' });
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.appendMany([userMessageEvent('a'), userMessageEvent('b'), userMessageEvent('c')]);
    await log.close();
    const bytes = await readFile(segment);
    bytes[bytes.indexOf('"b"') + 1] = 'X'.charCodeAt(0);
    await writeFile(segment, bytes);
    // Its event file gone too, so the open cannot recover the event and fails.
    const names = await readdir(join(root, 'events'));
    await rm(join(root, 'events', names.find((name) => name.startsWith('event-00001-'))!));

    await expect(EventLog.open(store)).rejects.toMatchObject({ code: 'damaged_segment' });
    // Not left for the garbage collector: the directory can be repaired or removed right away.
    expect(descriptorsOn(segment)).toBe(0);
  });
});
