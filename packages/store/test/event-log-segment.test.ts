import { appendFile, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { UnsupportedLayoutError } from '../src/errors/unsupported-layout-error.js';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function localStore(): Promise<{ root: string; store: FileStore }> {
  const root = await mkdtemp(join(tmpdir(), 'x-event-log-segment-'));
  roots.push(root);
  return { root, store: createLocalFileStore({ root, durability: 'fsync' }) };
}

function collectWarnings(): { warnings: string[]; logger: { warn(message: string): void } } {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message) => warnings.push(message) } };
}

describe('EventLog with the segment layout', () => {
  it('commits to one segment and derives the reference event files, byte for byte', async () => {
    const { root, store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment' });
    const events = ['one', 'two', 'three'].map((text) => userMessageEvent(text));
    expect(await log.append(events[0]!)).toBe(0);
    expect(await log.appendMany(events.slice(1))).toEqual([1, 2]);
    await log.close();
    const listing = await store.list('events/.slots');
    expect(listing).toEqual(['events/.slots/segment']);
    for (const [index, event] of events.entries()) {
      const text = await readFile(join(root, 'events', eventFileName(index, event.id)), 'utf8');
      expect(JSON.parse(text)).toMatchObject({ id: event.id });
    }
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 3, fromClaims: [] });
  });

  it('is opened as a segment log by an instance that did not ask for it, and appends to the segment', async () => {
    const { store } = await localStore();
    const writer = await EventLog.open(store, { layout: 'segment' });
    await writer.append(userMessageEvent('first'));
    const other = await EventLog.open(store);
    expect(other.length).toBe(1);
    expect(await other.append(userMessageEvent('second'))).toBe(1);
    expect(await writer.refresh()).toBe(1);
    expect(messageText(await writer.get(1))).toBe('second');
    expect(await store.list('events/.slots')).toEqual(['events/.slots/segment']);
  });

  it.each([{ asked: 'segment' as const }, { asked: undefined }])(
    'opens as a segment log when another writer creates one between its look for the segment and its listing (layout $asked)',
    async ({ asked }) => {
      const { store } = await localStore();
      let first: EventLog | undefined;
      // The other writer runs exactly inside the window: after this open found no segment, before it lists.
      const racing: FileStore = Object.create(store, {
        exists: {
          value: async (path: string) => {
            const found = await store.exists(path);
            if (path.endsWith('.slots/segment') && !found && first === undefined) {
              first = await EventLog.open(store, { layout: 'segment' });
              await first.append(userMessageEvent('first'));
            }
            return found;
          },
        },
      });
      const second = await EventLog.open(racing, asked === undefined ? {} : { layout: asked });
      expect(second.length).toBe(1);
      expect(await second.append(userMessageEvent('second'))).toBe(1);
      expect(await first!.append(userMessageEvent('third'))).toBe(2);
      expect(await store.list('events/.slots')).toEqual(['events/.slots/segment']);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 3 });
    },
  );

  it('keeps the file-per-event layout of a log that already holds events', async () => {
    const { store } = await localStore();
    const classic = await EventLog.open(store);
    await classic.append(userMessageEvent('old'));
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { layout: 'segment', logger });
    expect(await log.append(userMessageEvent('new'))).toBe(1);
    expect(await store.exists('events/.slots/segment')).toBe(false);
    expect(warnings.join('\n')).toMatch(/keeps that layout/);
  });

  it('skips a torn tail left by a crash, appends after it, and every reader agrees', async () => {
    const { root, store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment' });
    await log.appendMany([userMessageEvent('a'), userMessageEvent('b')]);
    await log.close();
    const segment = join(root, 'events/.slots/segment');
    const whole = await readFile(segment);
    // A third record cut short, as a power loss mid-write leaves it: its header and half its payload.
    await appendFile(segment, whole.subarray(0, Math.floor(whole.length / 3)));
    const { warnings, logger } = collectWarnings();
    const reopened = await EventLog.open(store, { logger });
    expect(reopened.length).toBe(2);
    expect(await reopened.append(userMessageEvent('c'))).toBe(2);
    const reader = await EventLog.open(store, { logger });
    expect((await reader.range(0)).map(messageText)).toEqual(['a', 'b', 'c']);
    expect(warnings.join('\n')).toMatch(/not an intact record/);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 3 });
  });

  it('rebuilds event files a power loss left missing or empty, on open', async () => {
    const { root, store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment' });
    const events = [userMessageEvent('a'), userMessageEvent('b'), userMessageEvent('c')];
    await log.appendMany(events);
    await log.close();
    const file = (index: number) => join(root, 'events', eventFileName(index, events[index]!.id));
    const intact = await readFile(file(1));
    await rm(file(0));
    await truncate(file(1), 0);
    const { warnings, logger } = collectWarnings();
    const reopened = await EventLog.open(store, { logger });
    expect(reopened.length).toBe(3);
    // Rebuilt after open resolves; close waits for it.
    await reopened.close();
    expect(await readFile(file(1))).toEqual(intact);
    expect(JSON.parse(await readFile(file(0), 'utf8'))).toMatchObject({ id: events[0]!.id });
    expect(warnings.join('\n')).toMatch(/events 0, 1 were missing or left unfinished/);
  });

  it('serves reads from the segment and reports an event file changed behind its back', async () => {
    const { root, store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment' });
    const event = userMessageEvent('original');
    await log.append(event);
    await log.append(userMessageEvent('next'));
    const path = join(root, 'events', eventFileName(0, event.id));
    await writeFile(path, (await readFile(path, 'utf8')).replace('original', 'tampered'));
    const reader = await EventLog.open(store);
    expect(messageText(await reader.get(0))).toBe('original');
    expect(await verifyEventChain(store)).toMatchObject({ status: 'tampered', problem: { kind: 'altered', index: 0 } });
  });

  it.each(['batched', 'at-close'] as const)(
    "with eventFiles '%s', writes the event files at close (or a later open), not at each commit",
    async (when) => {
      const { store } = await localStore();
      const log = await EventLog.open(store, { layout: 'segment', eventFiles: when });
      const events = [userMessageEvent('a'), userMessageEvent('b')];
      await log.appendMany(events);
      const eventFiles = async () => (await store.list('events')).filter((path) => path.endsWith('.json'));
      expect(await eventFiles()).toEqual([]);
      expect(messageText(await (await EventLog.open(store, { rollForward: false })).get(1))).toBe('b');
      await log.close();
      expect(await eventFiles()).toEqual(events.map((event, index) => `events/${eventFileName(index, event.id)}`));
    },
  );

  it("with eventFiles 'batched', writes them in the background once the log is idle, without close", async () => {
    const { store } = await localStore();
    const log = await EventLog.open(store, { layout: 'segment', eventFiles: 'batched' });
    const events = Array.from({ length: 300 }, (_, k) => userMessageEvent(`event ${k}`));
    await log.appendMany(events.slice(0, 100));
    await log.appendMany(events.slice(100));
    const eventFiles = async () => (await store.list('events')).filter((path) => path.endsWith('.json')).sort();
    // Written after the appends resolved, by the background writer: waited for, not timed.
    await vi.waitFor(async () => expect(await eventFiles()).toHaveLength(300), { timeout: 120_000, interval: 20 });
    expect(await eventFiles()).toEqual(events.map((event, index) => `events/${eventFileName(index, event.id)}`));
    await log.close();
  });

  it('fails with UnsupportedLayoutError on a store that cannot append to a file', async () => {
    const memory = createMemoryFileStore();
    const { openAppendFile: _, ...withoutAppend } = memory;
    await expect(EventLog.open(withoutAppend as FileStore, { layout: 'segment' })).rejects.toBeInstanceOf(
      UnsupportedLayoutError,
    );
  });
});
