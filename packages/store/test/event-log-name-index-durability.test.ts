import { describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { NAME_INDEX_MIN_COUNT, nameIndexPath } from '../src/event-log/name-index.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// The name index lets the next open trust the directory without listing it, so it must never name an event file
// a power loss could still take away. The local store with `'fsync'` resolves an append once its claim is durable
// and syncs the event file later (`deferThen`): the index waits for those syncs. This store does the same in
// memory, its syncs held until released.

/** A memory store whose pair writes put both files at once, with listing versions around them, and defer the sync. */
function deferredSyncStore(): { store: FileStore; holdSyncs(): void; releaseSyncs(): void } {
  const memory = createMemoryFileStore();
  let held: Promise<void> | undefined;
  let release: (() => void) | undefined;
  const store: FileStore = {
    ...memory,
    async writeIfAbsentThenWrite(first, then, onCreated, options) {
      const dir = then.path.slice(0, then.path.lastIndexOf('/'));
      const before = await memory.listingVersion!(dir);
      if (!(await memory.writeIfAbsent(first.path, first.data))) return false;
      onCreated();
      await memory.write(then.path, then.data);
      const after = await memory.listingVersion!(dir);
      if (before !== undefined && after !== undefined) options?.onVersions?.(before, after);
      const synced = held ?? Promise.resolve();
      if (options?.deferThen) options.deferThen(synced);
      else await synced;
      return true;
    },
  };
  return {
    store,
    holdSyncs: () => {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    releaseSyncs: () => release?.(),
  };
}

describe('EventLog name index and event files not yet durable', () => {
  it('is written at close only once every event file it names is synced', async () => {
    const { store, holdSyncs, releaseSyncs } = deferredSyncStore();
    const log = await EventLog.open(store, { stageBodies: false });
    for (let index = 0; index < NAME_INDEX_MIN_COUNT; index++) await log.append(userMessageEvent(`event ${index}`));
    holdSyncs();
    const last = userMessageEvent('its file not yet synced');
    expect(await log.append(last)).toBe(NAME_INDEX_MIN_COUNT);
    expect(await store.exists(`events/${eventFileName(NAME_INDEX_MIN_COUNT, last.id)}`)).toBe(true);

    let closed = false;
    const closing = log.close().then(() => {
      closed = true;
    });
    // Everything close can do before the sync has run (no timers: the memory store answers at once).
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    expect(await store.exists(nameIndexPath('events'))).toBe(false);
    releaseSyncs();
    await closing;
    expect(await store.exists(nameIndexPath('events'))).toBe(true);
    // And it is the index of the whole log: the next open lists nothing.
    let listings = 0;
    const counted: FileStore = {
      ...store,
      list: (prefix) => {
        listings++;
        return store.list(prefix);
      },
      listUnordered: undefined,
    };
    expect((await EventLog.open(counted)).length).toBe(NAME_INDEX_MIN_COUNT + 1);
    expect(listings).toBe(0);
  });
});
