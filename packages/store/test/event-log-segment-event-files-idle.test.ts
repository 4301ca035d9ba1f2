import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// When a segment log writes its event files once idle (src/event-log/segment/derived-event-files.ts): 'batched'
// starts writing them when no commit ran for a while, 'at-close' never before close. The idle timer is faked (only
// setTimeout), so "a while later" is a step of the test, not a wait; the background writer then starts on the
// next turn of the event loop, which the test takes after it.

const roots: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** The local store, with the event files written counted. */
function countingStore(root: string): { store: FileStore; written: () => number } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let written = 0;
  const store: FileStore = {
    ...inner,
    writeRebuildable: (files) => {
      written += files.filter((file) => file.path.endsWith('.json')).length;
      return inner.writeRebuildable!(files);
    },
  };
  return { store, written: () => written };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('EventLog segment layout: event files once the log is idle', () => {
  it.each([
    ['batched', 3, 3],
    ['batched', 1, 1],
    ['at-close', 3, 0],
    ['at-close', 1, 0],
  ] as const)(
    "with eventFiles '%s', of %i events writes %i files when idle, all at close",
    async (eventFiles, count, whenIdle) => {
      const root = await mkdtemp(join(tmpdir(), 'x-segment-idle-'));
      roots.push(root);
      const { store, written } = countingStore(root);
      const log = await EventLog.open(store, { layout: 'segment', eventFiles });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await log.appendMany(Array.from({ length: count }, (_, k) => userMessageEvent(`event ${k}`)));
      // Not idle yet (the timer has not run): nothing is written, however many turns the event loop takes.
      await nextTurn();
      await nextTurn();
      expect(written()).toBe(0);
      vi.advanceTimersByTime(60_000);
      await nextTurn();
      await nextTurn();
      expect(written()).toBe(whenIdle);
      vi.useRealTimers();
      await log.close();
      expect(written()).toBe(count);
    },
  );
});
