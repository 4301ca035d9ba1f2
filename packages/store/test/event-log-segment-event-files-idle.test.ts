import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { collectWarnings } from './helpers/segment-stores.js';

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

describe('EventLog segment layout: a background writer that fails', () => {
  it('warns, keeps the log working, and leaves the file it lost for the next open to rebuild', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-segment-idle-'));
    roots.push(root);
    const inner = createLocalFileStore({ root, durability: 'none' });
    let faults = 1;
    // Not a StoreError (those are warned about where they happen): a fault of the writer itself, once.
    const failingOnce: FileStore = {
      ...inner,
      writeRebuildable: async (files) => {
        if (faults-- > 0) throw new TypeError('writer fault');
        return inner.writeRebuildable!(files);
      },
    };
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(failingOnce, { layout: 'segment', eventFiles: 'batched', logger });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const [lost, after] = [userMessageEvent('its file is lost'), userMessageEvent('appended after the fault')];
    await log.append(lost);
    vi.advanceTimersByTime(60_000);
    await vi.waitFor(() => expect(warnings).toEqual(['event files were not written (writer fault); rebuilt on open']), {
      timeout: 10_000,
    });
    vi.useRealTimers();
    await log.append(after);
    await log.close();
    const lostFile = join(root, 'events', eventFileName(0, lost.id));
    expect(existsSync(lostFile)).toBe(false);
    expect(existsSync(join(root, 'events', eventFileName(1, after.id)))).toBe(true);

    // The segment holds the event: the next open rebuilds its file (in the background, done by its close).
    const reopened = await EventLog.open(inner, { layout: 'segment' });
    expect(reopened.length).toBe(2);
    await reopened.close();
    expect(JSON.parse(await readFile(lostFile, 'utf8'))).toMatchObject({ id: lost.id });
  });
});
