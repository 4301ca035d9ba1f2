import { describe, expect, it } from 'vitest';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import type { FileStore } from '../file-store.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { createManualClock } from '../testing/manual-clock.js';
import { writeUnderLease } from './fenced-write.js';
import { createFileStoreLeases } from './file-store-leases.js';

// A state file written by a lease's holder (base_state.json) must not land once another owner took the lease over:
// on a store that cannot fence inside its write, writeUnderLease checks the lease just before it. The takeover is
// the contender's create of generation 2, written directly so no heartbeat has to be watched standing still.

describe('writeUnderLease on a store that does not fence its writes', () => {
  it('writes while the lease is held and refuses, writing nothing, once another owner took it over', async () => {
    const store = createMemoryFileStore();
    const lease = await createFileStoreLeases(store, { owner: 'a', ttlMs: 60_000, clock: createManualClock() }).acquire(
      'conversation-1',
    );
    await writeUnderLease(store, 'conversation-1/base_state.json', '{"owner":"a"}', lease);
    expect(await store.read('conversation-1/base_state.json')).toBe('{"owner":"a"}');

    expect(await store.writeIfAbsent('.leases/conversation-1/gen-0000000002.json', '{"owner":"b"}')).toBe(true);
    // The new owner's file, which the stale one must not clobber.
    await store.write('conversation-1/base_state.json', '{"owner":"b"}');
    const refused = await writeUnderLease(store, 'conversation-1/base_state.json', '{"owner":"a"}', lease).catch(
      (caught: unknown) => caught,
    );
    expect(LeaseLostError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ leaseKey: 'conversation-1', generation: 1 });
    expect(await store.read('conversation-1/base_state.json')).toBe('{"owner":"b"}');
  });

  it('hands a store that fences its writes the lease as the fence, and checks nothing itself', async () => {
    const memory = createMemoryFileStore();
    const lease = await createFileStoreLeases(memory, {
      owner: 'a',
      ttlMs: 60_000,
      clock: createManualClock(),
    }).acquire('conversation-2');
    const fences: unknown[] = [];
    const fencing: FileStore = {
      ...memory,
      fencesWrites: true,
      write: async (path, data, options) => {
        fences.push(options?.fence);
        await memory.write(path, data);
      },
    };
    // Taken over: a separate check would refuse, but a fencing store decides inside its own write.
    await memory.writeIfAbsent('.leases/conversation-2/gen-0000000002.json', '{"owner":"b"}');
    await writeUnderLease(fencing, 'conversation-2/base_state.json', '{}', lease);
    expect(fences).toEqual([lease]);
  });
});
