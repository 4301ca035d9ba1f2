import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { DuplicateEventIdError } from '../src/errors/duplicate-event-id-error.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { verifyLog } from './helpers/verify-log.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function localStore(durability: 'none' | 'fsync' = 'none'): Promise<FileStore> {
  const root = await mkdtemp(join(tmpdir(), 'x-append-many-'));
  roots.push(root);
  return createLocalFileStore({ root, durability });
}

const stores: [string, () => Promise<FileStore>][] = [
  ['memory (one pair at a time)', async () => createMemoryFileStore()],
  ['local fs, no fsync', () => localStore('none')],
  ['local fs, fsync', () => localStore('fsync')],
];

describe.each(stores)('EventLog.appendMany on %s', (_name, makeStore) => {
  it('appends in order at contiguous indices, the same files and chain as one append per event', async () => {
    const store = await makeStore();
    const log = await EventLog.open(store);
    await log.append(userMessageEvent('first'));
    const batch = [0, 1, 2, 3].map((i) => userMessageEvent(`batch ${i}`));
    expect(await log.appendMany(batch)).toEqual([1, 2, 3, 4]);
    expect(await log.append(userMessageEvent('after'))).toBe(5);
    await log.close();
    const reopened = await verifyLog(store, new Map(batch.map((event, i) => [i + 1, event.id])));
    expect((await reopened.range(1, 5)).map(serializeEvent)).toEqual(batch.map(serializeEvent));
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 6, chainedFrom: 0 });
  });

  it('rejects an id twice in the batch, or already in the log, before writing anything', async () => {
    const store = await makeStore();
    const log = await EventLog.open(store);
    const existing = userMessageEvent('existing');
    await log.append(existing);
    const twice = userMessageEvent('twice');
    await expect(log.appendMany([userMessageEvent('a'), twice, twice])).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(log.appendMany([userMessageEvent('b'), existing])).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect((await EventLog.open(store)).length).toBe(1);
  });

  it('puts the rest of the batch after an event another writer appended in between', async () => {
    const store = await makeStore();
    const mine = await EventLog.open(store);
    await mine.append(userMessageEvent('first'));
    const other = await EventLog.open(store);
    const theirs = userMessageEvent('theirs');
    // The other writer takes index 2 while `mine` still thinks the log has 1 event.
    await other.append(userMessageEvent('second'));
    await other.append(theirs);
    await mine.refresh();
    const stale = await EventLog.open(store);
    await other.append(userMessageEvent('third, unseen by stale'));
    const batch = [userMessageEvent('x'), userMessageEvent('y')];
    expect(await stale.appendMany(batch)).toEqual([4, 5]);
    await verifyLog(
      store,
      new Map([
        [3, (await other.get(3)).id],
        [4, batch[0]!.id],
        [5, batch[1]!.id],
      ]),
    );
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 6 });
  });
});

describe('EventLog.appendMany on the local store', () => {
  it('writes a batch with one store call where an append per event makes one each', async () => {
    const inner = await localStore('fsync');
    const calls: string[] = [];
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(property));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const log = await EventLog.open(store);
    await log.append(userMessageEvent('first'));
    calls.length = 0;
    await log.appendMany([0, 1, 2].map((i) => userMessageEvent(`batch ${i}`)));
    expect(calls.filter((call) => call.startsWith('write'))).toEqual(['writeIfAbsentThenLinkMany']);
  });
});
