import { describe, expect, it } from 'vitest';
import { countingStore } from '../../test/helpers/counting-store.js';
import { LeaseHeldError } from '../errors/lease-held-error.js';
import type { FileStore } from '../file-store.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { advanceUntilSettled, createManualClock } from '../testing/manual-clock.js';
import { FileStoreLeases } from './file-store-leases.js';

const TTL = 300;

/**
 * `store`, noting how long the contender had watched the heartbeat when it created generation 2 (a takeover):
 * from its first look to the look that decided, by the clock.
 */
function timingTakeovers(store: FileStore, now: () => number): { store: FileStore; watchedFor: number[] } {
  const watchedFor: number[] = [];
  const looks: number[] = [];
  return {
    watchedFor,
    store: {
      ...store,
      read: (path) => {
        if (path.endsWith('/beat-0000000001.json')) looks.push(now());
        return store.read(path);
      },
      writeIfAbsent: (path, data) => {
        if (path.endsWith('/gen-0000000002.json')) watchedFor.push(looks.at(-1)! - looks[0]!);
        return store.writeIfAbsent(path, data);
      },
    },
  };
}

describe('FileStoreLeases heartbeats', () => {
  it('writes a heartbeat every third of the ttl, and leaves no timer behind once released', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const lease = await new FileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }).acquire('c1');
    await clock.advance(10 * TTL);
    // Three store writes per ttl: enough to survive one failed renewal, few enough to cost little on S3.
    expect(JSON.parse(await store.read('.leases/c1/beat-0000000001.json')).beat).toBe(30);
    await lease.release();
    expect(clock.pending).toBe(0);
  });

  it('lets a renewal under way land before the release, so nothing of the lease is written after it', async () => {
    const shared = createMemoryFileStore();
    const landed: string[] = [];
    let entered: () => void = () => undefined;
    const beatStarted = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const store: FileStore = {
      ...shared,
      write: async (path, data) => {
        entered();
        await gate;
        await shared.write(path, data);
        landed.push(path.slice(path.lastIndexOf('/') + 1));
      },
      writeIfAbsent: async (path, data) => {
        const created = await shared.writeIfAbsent(path, data);
        landed.push(path.slice(path.lastIndexOf('/') + 1));
        return created;
      },
    };
    const clock = createManualClock();
    const lease = await new FileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock }).acquire('c1');
    const advancing = clock.advance(TTL / 3);
    await beatStarted;
    const releasing = lease.release();
    open();
    await Promise.all([advancing, releasing]);
    expect(landed).toEqual(['gen-0000000001.json', 'beat-0000000001.json', 'released-0000000001.json']);
  });
});

describe('a contender watching a heartbeat', () => {
  it('takes a silent lease over after a whole ttl, and no more than one look later', async () => {
    const clock = createManualClock();
    const timed = timingTakeovers(createMemoryFileStore(), () => clock.now());
    await new FileStoreLeases(timed.store, { owner: 'gone', ttlMs: TTL, clock: createManualClock() }).acquire('c1');
    const contender = new FileStoreLeases(timed.store, { owner: 'next', ttlMs: TTL, clock });
    const taken = await advanceUntilSettled(clock, contender.acquire('c1', { waitMs: 100 * TTL }), TTL / 4);
    expect(taken.generation).toBe(2);
    expect(timed.watchedFor).toHaveLength(1);
    expect(timed.watchedFor[0]).toBeGreaterThanOrEqual(TTL);
    // It looks every fifth of a ttl.
    expect(timed.watchedFor[0]).toBeLessThan(TTL + TTL / 5);
  });

  it('looks about five times a ttl, not more', async () => {
    const shared = createMemoryFileStore();
    await new FileStoreLeases(shared, { owner: 'gone', ttlMs: TTL, clock: createManualClock() }).acquire('c1');
    const counting = countingStore(shared);
    const clock = createManualClock();
    const contender = new FileStoreLeases(counting.store, { owner: 'next', ttlMs: TTL, clock });
    expect((await advanceUntilSettled(clock, contender.acquire('c1'), TTL / 4)).generation).toBe(2);
    // One read of the holder's record and of its heartbeat to start with, then one of the heartbeat per look.
    expect(counting.counts.read).toBeLessThanOrEqual(2 + 6);
  });

  it('takes a lease its holder releases while it watches, without waiting for a ttl or being told to wait', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const held = await new FileStoreLeases(store, { owner: 'leaving', ttlMs: TTL, clock }).acquire('c1');
    const taking = new FileStoreLeases(store, { owner: 'next', ttlMs: TTL, clock }).acquire('c1');
    // Released once the contender is watching: its first look is due (the holder's heartbeat is the other timer).
    while (clock.pending < 2) await new Promise((resolve) => setImmediate(resolve));
    await held.release();
    const taken = await advanceUntilSettled(clock, taking, TTL / 4);
    expect(taken).toMatchObject({ generation: 2, previous: 'released' });
    expect(clock.now()).toBeLessThan(TTL);
  });

  it('waits out the holder’s own ttl when that is longer than its own', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    // The holder beats every third of its long ttl: a contender going by its own short ttl would see it as dead.
    const held = await new FileStoreLeases(store, { owner: 'slow-beat', ttlMs: 5 * TTL, clock }).acquire('c1');
    const contender = new FileStoreLeases(store, { owner: 'hasty', ttlMs: TTL, clock });
    const refused = await advanceUntilSettled(clock, contender.acquire('c1', { waitMs: 20 * TTL }), TTL / 4).catch(
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(LeaseHeldError);
    expect(held.signal.aborted).toBe(false);
    await held.assertHeld();
    await held.release();
  });
});
