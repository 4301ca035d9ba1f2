import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A close whose last event-file write fails still closes the segment file: the error reaches the caller, and no
// descriptor of the log stays open behind it (a server closing many conversations would run out of them).

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** The paths this process holds open under `root`. */
function openUnder(root: string): string[] {
  const held: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(root)) held.push(target);
    } catch {
      // Closed between the listing and the look.
    }
  }
  return held;
}

describe('EventLog segment layout: close', () => {
  it('closes the segment file when writing the last event files fails, and rejects with that failure', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-segment-close-'));
    roots.push(root);
    const inner = createLocalFileStore({ root, durability: 'none' });
    // Not a StoreError: a fault of a custom store, which the writer does not turn into a warning.
    const failing: FileStore = {
      ...inner,
      writeRebuildable: async () => {
        throw new TypeError('custom store fault');
      },
    };
    const log = await EventLog.open(failing, { layout: 'segment', eventFiles: 'at-close' });
    await log.append(userMessageEvent('hello'));
    expect(openUnder(root).some((path) => path.includes('segment'))).toBe(true);
    await expect(log.close()).rejects.toThrow('custom store fault');
    // The store's own root stays open (it is the store's, not the log's); nothing of the log does.
    expect(openUnder(join(root, 'events'))).toEqual([]);
  });
});
