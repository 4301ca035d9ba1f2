import { describe, expect, it } from 'vitest';
import { partitionable } from '../../test/helpers/partitionable-store.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import type { FileStore } from '../file-store.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { advanceUntilSettled, createManualClock } from '../testing/manual-clock.js';
import { FileStoreLeases } from './file-store-leases.js';
import type { LeaseClock } from './lease-clock.js';

// A contender takes a lease over once its heartbeat stood still for a whole ttl. The holder must have stopped by
// then: callers that check only `signal` (a conversation's default ownership) append until it aborts, and a fenced
// append checks the store and then writes, a gap only the ttl covers.

/** `store`, recording whether the holder had stopped at the moment its successor created generation 2. */
function watchingTakeover(store: FileStore, holderStopped: () => boolean): { store: FileStore; seen: boolean[] } {
  const seen: boolean[] = [];
  return {
    seen,
    store: {
      ...store,
      writeIfAbsent: (path, data) => {
        if (path.endsWith('/gen-0000000002.json')) seen.push(holderStopped());
        return store.writeIfAbsent(path, data);
      },
    },
  };
}

/**
 * A clock whose time the test sets and whose timers it fires by hand: a timer that runs late, after a pause. `fire`
 * runs every timer (the heartbeat and the lease's deadline watch, which only re-arms while the deadline is ahead).
 */
function handClock(): { clock: LeaseClock; set(ms: number): void; fire(): Promise<unknown> } {
  let now = 0;
  const ticks = new Set<() => unknown>();
  return {
    clock: {
      now: () => now,
      sleep: () => Promise.reject(new Error('this test never waits')),
      every: (_ms, onTick) => {
        const tick = () => onTick();
        ticks.add(tick);
        return () => {
          ticks.delete(tick);
        };
      },
    },
    set: (ms) => {
      now = ms;
    },
    fire: () => Promise.all([...ticks].map((tick) => tick())),
  };
}

describe('a file-store lease whose holder cannot renew', () => {
  for (const ttlMs of [300, 200]) {
    it(`has stopped (ttl ${ttlMs} ms) by the time a contender takes it over`, async () => {
      const shared = createMemoryFileStore();
      const { store: holderStore, cut } = partitionable(shared);
      const clock = createManualClock();
      const holder = await new FileStoreLeases(holderStore, { owner: 'cut-off', ttlMs, clock }).acquire('c1');
      cut.on = true;
      const watched = watchingTakeover(shared, () => holder.signal.aborted);
      const contender = new FileStoreLeases(watched.store, { owner: 'next', ttlMs, clock });
      const taken = await advanceUntilSettled(clock, contender.acquire('c1', { waitMs: 100 * ttlMs }), ttlMs / 4);
      expect(taken).toMatchObject({ generation: 2, previous: 'expired' });
      expect(watched.seen).toEqual([true]);
      await expect(holder.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    });
  }

  it('keeps the lease through one failed renewal', async () => {
    const TTL = 300;
    const { store, cut } = partitionable(createMemoryFileStore());
    const clock = createManualClock();
    const lease = await new FileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }).acquire('c1');
    // Renewals that went through move its deadline on: a failure more than a ttl after it was taken is one miss.
    await clock.advance(TTL);
    cut.on = true;
    await clock.advance(TTL / 3);
    cut.on = false;
    await clock.advance(10 * TTL);
    expect(lease.signal.aborted).toBe(false);
    await lease.assertHeld();
    await lease.release();
  });

  it('counts its ttl from before the generation was created, not from when the store said so', async () => {
    const TTL = 300;
    const shared = createMemoryFileStore();
    const { store, cut } = partitionable(shared);
    const hand = handClock();
    // The create lands at 0 (a contender may start watching then); its answer comes back half a ttl later.
    const slowToAnswer: FileStore = {
      ...store,
      writeIfAbsent: async (path, data) => {
        const created = await store.writeIfAbsent(path, data);
        hand.set(TTL / 2);
        return created;
      },
    };
    const lease = await new FileStoreLeases(slowToAnswer, { owner: 'a', ttlMs: TTL, clock: hand.clock }).acquire('c1');
    cut.on = true;
    // Its first heartbeat, a third of a ttl after it was handed the lease, fails; the next would come past 0 + ttl.
    hand.set(TTL / 2 + TTL / 3);
    await hand.fire();
    expect(lease.signal.aborted).toBe(true);
  });

  it('counts a renewal from when it began', async () => {
    const TTL = 300;
    const { store, cut } = partitionable(createMemoryFileStore());
    const hand = handClock();
    let slow = false;
    const slowToAnswer: FileStore = {
      ...store,
      write: async (path, data) => {
        await store.write(path, data);
        if (slow) hand.set(TTL / 3 + TTL / 4);
      },
    };
    const lease = await new FileStoreLeases(slowToAnswer, { owner: 'a', ttlMs: TTL, clock: hand.clock }).acquire('c1');
    // A beat that begins at a third of the ttl and is acknowledged a quarter of a ttl later.
    hand.set(TTL / 3);
    slow = true;
    await hand.fire();
    cut.on = true;
    // Two thirds of a ttl after that beat began, a renewal fails: the next would come a whole ttl after it.
    hand.set(TTL);
    await hand.fire();
    expect(lease.signal.aborted).toBe(true);
  });
});
