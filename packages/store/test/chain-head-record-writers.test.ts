import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/**
 * The head record a log writes at close (`recordHead`) covers whatever this instance appended, by any path: one
 * event at a time, or a batch (`appendMany`, whose events are claimed together). An instance that appended nothing
 * leaves the record of the one that did. Without it, events cut from the log's end after the close would verify.
 */
// The local store writes a batch's claims in one call (its own path in `appendMany`); the memory store one by one.
const stores: Array<[string, () => FileStore]> = [
  ['memory', () => createMemoryFileStore()],
  [
    'local',
    () => {
      const root = mkdtempSync(join(tmpdir(), 'x-head-record-'));
      roots.push(root);
      return createLocalFileStore({ root, durability: 'none' });
    },
  ],
];

describe.each(stores)("the chain's head record at close (%s store)", (_name, newStore) => {
  const events = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => userMessageEvent(`${prefix} ${index}`));

  it('covers events an instance appended only in batches', async () => {
    const store = newStore();
    const first = await EventLog.open(store);
    await first.append(userMessageEvent('first'));
    await first.close();
    expect((await verifyEventChain(store)).recordedLength).toBe(1);

    const batcher = await EventLog.open(store);
    await batcher.appendMany(events('batched', 3));
    await batcher.close();
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 4, recordedLength: 4 });
  });

  it('covers a first batch on an empty log, and is left alone by an instance that appended nothing', async () => {
    const store = newStore();
    const batcher = await EventLog.open(store);
    await batcher.appendMany(events('batched', 2));
    await batcher.close();
    expect((await verifyEventChain(store)).recordedLength).toBe(2);

    const reader = await EventLog.open(store);
    expect(reader.length).toBe(2);
    await reader.close();
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 2, recordedLength: 2 });
  });
});
