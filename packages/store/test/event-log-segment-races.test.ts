import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { AppendConflictError } from '../src/errors/append-conflict-error.js';
import { DuplicateEventIdError } from '../src/errors/duplicate-event-id-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A segment log's append that loses the race (src/event-log/segment/segment-log.ts): another writer's records land
// between this instance's last look and its write. Made deterministic by a store whose append first runs the other
// writer's, once.

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-races-'));
  roots.push(root);
  return root;
}

/** The local store, whose next segment append first runs `before` (set by the test), once. */
function racingStore(root: string): { store: FileStore; raceWith(before: () => Promise<unknown>): void } {
  const inner = createLocalFileStore({ root, durability: 'none' });
  let pending: (() => Promise<unknown>) | undefined;
  const store: FileStore = {
    ...inner,
    openAppendFile: async (path) => {
      const file = await inner.openAppendFile!(path);
      return {
        scope: file.scope,
        append: async (data) => {
          const before = pending;
          pending = undefined;
          if (before !== undefined) await before();
          return file.append(data);
        },
        readFrom: (offset, length) => file.readFrom(offset, length),
        close: () => file.close(),
      };
    },
  };
  return { store, raceWith: (before) => (pending = before) };
}

const texts = (log: EventLog, events: AnyEvent[]) =>
  Promise.all(events.map(async (_, k) => messageText(await log.get(k))));

describe('EventLog segment layout: an append that loses the race', () => {
  it("is written again after the other writer's records, and reads back as its own", async () => {
    const root = await newRoot();
    const { store, raceWith } = racingStore(root);
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.append(userMessageEvent('first'));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    raceWith(() => other.appendMany([userMessageEvent('other 1'), userMessageEvent('other 2')]));
    expect(await log.appendMany([userMessageEvent('mine 1'), userMessageEvent('mine 2')])).toEqual([3, 4]);
    expect(log.length).toBe(5);
    const all = Array.from({ length: 5 }, () => userMessageEvent(''));
    expect(await texts(log, all)).toEqual(['first', 'other 1', 'other 2', 'mine 1', 'mine 2']);
    const reader = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    expect(await texts(reader, all)).toEqual(['first', 'other 1', 'other 2', 'mine 1', 'mine 2']);
    expect(await log.append(userMessageEvent('after'))).toBe(5);
  });

  it('wins over bytes that are not a record landing first (a write cut short), and warns of them exactly', async () => {
    const root = await newRoot();
    const { store, raceWith } = racingStore(root);
    const warnings: string[] = [];
    const log = await EventLog.open(store, {
      layout: 'segment',
      logger: { warn: (message) => warnings.push(message) },
    });
    await log.append(userMessageEvent('first'));
    const segment = join(root, 'events/.slots/segment');
    const size = (await stat(segment)).size;
    raceWith(() => appendFile(segment, 'torn!'));
    const mine = [userMessageEvent('mine 1'), userMessageEvent('mine 2')];
    expect(await log.appendMany(mine)).toEqual([1, 2]);
    expect(warnings).toEqual([expect.stringContaining(`bytes ${size}…${size + 4} are not an intact record`)]);
    expect([log.indexOf(mine[0]!.id), log.indexOf(mine[1]!.id)]).toEqual([1, 2]);
    const all = Array.from({ length: 3 }, () => userMessageEvent(''));
    expect(await texts(log, all)).toEqual(['first', 'mine 1', 'mine 2']);
    const reader = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    expect(await texts(reader, all)).toEqual(['first', 'mine 1', 'mine 2']);
    expect(await log.append(userMessageEvent('after'))).toBe(3);
  });

  it('fails with AppendConflictError naming its event when it must not move', async () => {
    const root = await newRoot();
    const { store, raceWith } = racingStore(root);
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.append(userMessageEvent('first'));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    raceWith(() => other.append(userMessageEvent('other')));
    const mine = userMessageEvent('mine');
    const error = await log.append(mine, { expectedIndex: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppendConflictError);
    expect(error).toMatchObject({ eventId: mine.id, expectedIndex: 1, actualIndex: 2 });
    expect(log.length).toBe(2);
    expect(log.indexOf(mine.id)).toBe(-1);
    expect((await EventLog.open(createLocalFileStore({ root, durability: 'none' }))).length).toBe(2);
  });

  it('fails with AppendConflictError when the log is past the expected index (learned on the way)', async () => {
    const root = await newRoot();
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }), { layout: 'segment' });
    await log.append(userMessageEvent('first'));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    await other.appendMany([userMessageEvent('other 1'), userMessageEvent('other 2')]);
    const mine = userMessageEvent('mine');
    // Further than this instance knows: it reads the others' appends first.
    const error = await log.append(mine, { expectedIndex: 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppendConflictError);
    expect(error).toMatchObject({ eventId: mine.id, expectedIndex: 2, actualIndex: 3 });
    expect(log.length).toBe(3);
    const behind = await log.append(mine, { expectedIndex: 1 }).catch((caught: unknown) => caught);
    expect(behind).toMatchObject({ eventId: mine.id, expectedIndex: 1, actualIndex: 3 });
    expect(await log.append(mine, { expectedIndex: 3 })).toBe(3);
  });

  it('fails with DuplicateEventIdError when the other writer appended the same event first', async () => {
    const root = await newRoot();
    const { store, raceWith } = racingStore(root);
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.append(userMessageEvent('first'));
    const other = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    const same = userMessageEvent('same');
    raceWith(() => other.append(same));
    const error = await log.append(same).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(log.length).toBe(2);
    expect(log.indexOf(same.id)).toBe(1);
  });
});
