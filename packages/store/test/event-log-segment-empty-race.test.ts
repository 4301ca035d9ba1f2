import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';

// A log opened without a layout while another writer creates it as a segment log, between this open's look for the
// segment and its listing, before that writer's first event: the listing finds no events, and the log must still
// open as a segment log (else both writers commit an event 0, one in the segment, one as a slot claim).

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function localStore(): Promise<FileStore> {
  const root = await mkdtemp(join(tmpdir(), 'x-segment-empty-race-'));
  roots.push(root);
  return createLocalFileStore({ root, durability: 'none' });
}

describe('EventLog segment layout: a segment created while an empty log is opened', () => {
  it.each([
    ['local', localStore],
    ['memory', async () => createMemoryFileStore()],
  ] as const)('makes the open a segment log (%s store)', async (_, makeStore) => {
    const store = await makeStore();
    let segmentWriter: EventLog | undefined;
    // The other writer runs exactly inside the window: after this open found no segment, before it lists.
    const racing: FileStore = Object.create(store, {
      exists: {
        value: async (path: string) => {
          const found = await store.exists(path);
          if (path.endsWith('.slots/segment') && !found && segmentWriter === undefined) {
            segmentWriter = await EventLog.open(store, { layout: 'segment' });
          }
          return found;
        },
      },
    });
    const log = await EventLog.open(racing);
    expect(log.length).toBe(0);
    expect(await log.append(userMessageEvent('first'))).toBe(0);
    expect(await segmentWriter!.append(userMessageEvent('second'))).toBe(1);
    const reader = await EventLog.open(store);
    expect((await reader.range(0)).map(messageText)).toEqual(['first', 'second']);
    expect(await store.list('events/.slots')).toEqual(['events/.slots/segment']);
    expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 2 });
  });
});
