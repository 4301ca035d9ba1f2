import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { userMessageEvent } from './helpers/events.js';

/**
 * When the packed read cache writes a pack (`packs.ts`), and with which bytes: a chunk a reader read from its files
 * after finding its pack missing, never a chunk whose pack it did not look for, and from the appender's encoded
 * bytes only for the chunk they belong to.
 */

const packNames = (store: FileStore) => store.list('events/.slots/packs');

async function append(log: EventLog, count: number): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for (let index = 0; index < count; index++) {
    const event = userMessageEvent(`message ${index}`);
    await log.append(event);
    events.push(event);
  }
  return events;
}

describe('packed read cache writes', () => {
  it('writes no pack for a read whose events were all cached (it did not look for one)', async () => {
    const store = createMemoryFileStore();
    const appender = await EventLog.open(store, { packs: { chunkSize: 16 } });
    const events = await append(appender, 5);
    expect(await appender.range(0, 5)).toEqual(events);
    await appender.packsSettled();
    expect(await packNames(store)).toEqual([]);
  });

  it('rewrites a missing pack of an earlier chunk from the events read, not from the bytes of the chunk appended to', async () => {
    const store = createMemoryFileStore();
    // A cache of 10 events: each chunk is at hand when its last append completes it, and the first chunk is gone
    // from it when it is read again.
    const appender = await EventLog.open(store, { packs: { chunkSize: 8 }, cacheSize: 10 });
    const events = await append(appender, 20);
    await appender.packsSettled();
    expect(await packNames(store)).toEqual(['events/.slots/packs/00000.pack', 'events/.slots/packs/00008.pack']);
    await store.delete('events/.slots/packs/00000.pack');
    expect(await appender.range(0, 8)).toEqual(events.slice(0, 8));
    await appender.packsSettled();
    expect(await packNames(store)).toEqual(['events/.slots/packs/00000.pack', 'events/.slots/packs/00008.pack']);
    // The rewritten pack holds the chunk's own events: used by a fresh reader without a warning, and it verifies.
    const messages: string[] = [];
    const reader = await EventLog.open(store, {
      packs: { chunkSize: 8, write: false },
      logger: { warn: (message) => messages.push(message) },
    });
    expect(await reader.range(0, 8)).toEqual(events.slice(0, 8));
    expect(messages).toEqual([]);
    expect((await verifyEventChain(store)).status).toBe('verified');
  });
});
