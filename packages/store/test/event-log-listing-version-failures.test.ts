import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { StoreBackendError } from '../src/errors/store-backend-error.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { NAME_INDEX_MIN_COUNT, nameIndexPath } from '../src/event-log/name-index.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

// A directory's listing version only saves listings (see the name index): when the store fails to give one, the
// log goes on without it, as on a store that has none. Only a store's own failure (a StoreError) means that; any
// other error is a bug and reaches the caller.

/** A memory store (two-call appends, with listing versions) whose `listingVersion` throws `failure` while set. */
function failingVersions(): { store: FileStore; fail(error: Error | undefined): void } {
  const memory = createMemoryFileStore();
  let failure: Error | undefined;
  const store: FileStore = {
    ...memory,
    async listingVersion(dir, options) {
      if (failure !== undefined) throw failure;
      return memory.listingVersion!(dir, options);
    },
  };
  return {
    store,
    fail: (error) => {
      failure = error;
    },
  };
}

const backendFailure = () =>
  new StoreBackendError({ operation: 'listingVersion', path: 'events', location: 'memory', detail: 'EIO' });

describe('EventLog when the store fails to give a listing version', () => {
  it('appends on through a StoreError, and opens by listing meanwhile', async () => {
    const { store, fail } = failingVersions();
    const log = await EventLog.open(store);
    const events = [userMessageEvent('before'), userMessageEvent('during'), userMessageEvent('still during')];
    expect(await log.append(events[0]!)).toBe(0);
    fail(backendFailure());
    expect(await log.append(events[1]!)).toBe(1);
    expect(await log.append(events[2]!)).toBe(2);
    await log.close();
    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map((event) => event.id)).toEqual(events.map((event) => event.id));
    fail(undefined);
    expect(await reopened.append(userMessageEvent('after'))).toBe(3);
  });

  it('rejects an append with any other error, before its slot is claimed', async () => {
    const { store, fail } = failingVersions();
    const log = await EventLog.open(store);
    await log.append(userMessageEvent('before'));
    fail(new TypeError('a bug in the store'));
    await expect(log.append(userMessageEvent('refused'))).rejects.toThrow('a bug in the store');
    expect(await store.exists('events/.slots/00001.json')).toBe(false);
    fail(undefined);
    expect((await EventLog.open(store)).length).toBe(1);
  });

  it('trusts no version around an append whose version read failed, so its index never hides a file', async () => {
    const memory = createMemoryFileStore();
    const count = NAME_INDEX_MIN_COUNT;
    let failing = false;
    // The version read after the claim at `count` fails, and so do those up to the claim at `count + 1`.
    const store: FileStore = {
      ...memory,
      writeIfAbsent: async (path, data) => {
        if (path.endsWith(`/${slotFileName(count + 1)}`)) failing = false;
        const created = await memory.writeIfAbsent(path, data);
        if (path.endsWith(`/${slotFileName(count)}`)) failing = true;
        return created;
      },
      async listingVersion(dir, options) {
        if (failing) throw backendFailure();
        return memory.listingVersion!(dir, options);
      },
    };
    const log = await EventLog.open(store);
    for (let index = 0; index < count; index++) await log.append(userMessageEvent(`event ${index}`));
    expect(await log.append(userMessageEvent('its version after unknown'))).toBe(count);
    // Meanwhile a file lands in the directory, unseen (a foreign writer, past the next index).
    const foreign = userMessageEvent('foreign');
    await memory.write(`events/${eventFileName(count + 2, foreign.id)}`, serializeEvent(foreign));
    expect(await log.append(userMessageEvent('its version before unknown'))).toBe(count + 1);
    await log.close();
    expect(await memory.exists(nameIndexPath('events'))).toBe(false);
    const reopened = await EventLog.open(memory);
    expect(reopened.length).toBe(count + 3);
    expect(reopened.idAt(-1)).toBe(foreign.id);
  });
});
