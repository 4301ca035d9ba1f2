import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidPathError } from '../src/errors/invalid-path-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import type { LogEntry } from '../src/index.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// What `EventLog.open`'s options change that no other test looks at: `dir` (only a missing one means the default),
// `awaitEventFiles` (an append waits for its event file, not only for its claim) and `pollIntervalMs` (how long a
// caught-up subscription waits before it looks for other writers' appends), each against its default.

/** A memory store whose event files are written once `release` is called, as S3 finishes its PutObject later. */
function gatedStore(): { store: FileStore; memory: FileStore; claimed: Promise<void>; release(): void } {
  const memory = createMemoryFileStore();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let onClaim!: () => void;
  const claimed = new Promise<void>((resolve) => {
    onClaim = resolve;
  });
  const { listingVersion: _none, ...withoutVersions } = memory;
  const store: FileStore = {
    ...withoutVersions,
    async writeIfAbsentThenWrite(first, then, onCreated, options) {
      if (!(await memory.writeIfAbsent(first.path, first.data))) return false;
      onCreated();
      onClaim();
      const rest = gate.then(() => memory.write(then.path, then.data));
      if (options?.deferThen) options.deferThen(rest);
      else await rest;
      return true;
    },
  };
  return { store, memory, claimed, release };
}

/** Whether `promise` has settled once everything already queued has run (no timers are involved). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const eventFiles = async (memory: FileStore) =>
  (await memory.list('events')).filter((path) => path.startsWith('events/event-'));

describe('EventLog.open dir', () => {
  it("rejects an empty dir with a typed error rather than taking it for the default 'events'", async () => {
    const store = createMemoryFileStore();
    await expect(EventLog.open(store, { dir: '' })).rejects.toBeInstanceOf(InvalidPathError);
    // Named as given, not as a path built under it (`/.slots/segment`).
    await expect(EventLog.open(store, { dir: '' })).rejects.toThrow(/must not be empty/);
    await expect(EventLog.open(store, { dir: 'a/../events' })).rejects.toThrow(
      'Invalid store path "a/../events": contains a ".." segment',
    );
    expect(await store.list('')).toEqual([]);
  });
});

describe('EventLog.open awaitEventFiles', () => {
  it('true: an append resolves only once its event file is written', async () => {
    const { store, memory, claimed, release } = gatedStore();
    const log = await EventLog.open(store, { awaitEventFiles: true });
    const appending = log.append(userMessageEvent('durable everywhere'));
    await claimed;
    expect(await settled(appending)).toBe(false);
    release();
    expect(await appending).toBe(0);
    expect(await eventFiles(memory)).toHaveLength(1);
    await log.close();
  });

  it('by default: an append resolves once its claim is written, and close waits for the event file', async () => {
    const { store, memory, release } = gatedStore();
    const log = await EventLog.open(store);
    expect(await log.append(userMessageEvent('committed by its claim'))).toBe(0);
    expect(await eventFiles(memory)).toHaveLength(0);
    const closing = log.close();
    expect(await settled(closing)).toBe(false);
    release();
    await closing;
    expect(await eventFiles(memory)).toHaveLength(1);
  });
});

describe('EventLog.open pollIntervalMs', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Subscribes `reader` from 0 and reports whether the first entry has arrived. */
  function firstEntry(reader: EventLog, controller: AbortController): { arrived(): boolean; entry: Promise<LogEntry> } {
    let arrived = false;
    const iterator = reader.subscribe(0, { signal: controller.signal })[Symbol.asyncIterator]();
    const entry = iterator.next().then((result) => {
      arrived = true;
      return result.value as LogEntry;
    });
    return { arrived: () => arrived, entry };
  }

  for (const [option, interval] of [
    [undefined, 250],
    [0, 0],
    [40, 40],
  ] as const) {
    it(`${option === undefined ? 'by default' : option}: a caught-up subscription looks for other writers' appends every ${interval} ms`, async () => {
      const store = createMemoryFileStore();
      const writer = await EventLog.open(store);
      const reader = await EventLog.open(store, option === undefined ? {} : { pollIntervalMs: option });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const controller = new AbortController();
      const { arrived, entry } = firstEntry(reader, controller);
      // The subscription is waiting (its timer is set) before the other writer appends. Not `vi.waitFor`: with
      // fake timers it advances them.
      while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
      const event = userMessageEvent('from another writer');
      await writer.append(event);
      if (interval > 0) {
        await vi.advanceTimersByTimeAsync(interval - 1);
        expect(arrived()).toBe(false);
      }
      await vi.advanceTimersByTimeAsync(1);
      expect((await entry).event.id).toBe(event.id);
      controller.abort();
    });
  }
});
