import { describe, expect, it } from 'vitest';
import { countingStore } from '../../test/helpers/counting-store.js';
import { LeaseHeldError } from '../errors/lease-held-error.js';
import type { FileStore } from '../file-store.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { advanceUntilSettled, createManualClock } from '../testing/manual-clock.js';
import { FileStoreLeases } from './file-store-leases.js';

const TTL = 300;

/** Takes and releases `c1` until `generations` owners have held it. */
async function hadOwners(store: FileStore, generations: number): Promise<void> {
  const leases = new FileStoreLeases(store, { owner: 'earlier', ttlMs: TTL, clock: createManualClock() });
  for (let i = 0; i < generations; i++) await (await leases.acquire('c1')).release();
}

describe('FileStoreLeases generations', () => {
  it('finds the current generation at a cost that does not grow with the number of owners before', async () => {
    const existsCalls: number[] = [];
    for (const generations of [2, 30]) {
      const counting = countingStore(createMemoryFileStore());
      await hadOwners(counting.store, generations);
      counting.reset();
      const lease = await new FileStoreLeases(counting.store, {
        owner: 'now',
        ttlMs: TTL,
        clock: createManualClock(),
      }).acquire('c1');
      expect(lease).toMatchObject({ generation: generations + 1, previous: 'released' });
      existsCalls.push(counting.counts.exists);
      await lease.release();
    }
    expect(existsCalls[1]).toBe(existsCalls[0]);
  });

  it('sees a generation that a lagging listing does not show yet', async () => {
    const shared = createMemoryFileStore();
    // An eventually consistent listing that has not caught up with any create.
    const lagging: FileStore = { ...shared, list: async () => [] };
    const clock = createManualClock();
    const held = await new FileStoreLeases(lagging, { owner: 'a', ttlMs: TTL, clock }).acquire('c1');
    const contender = new FileStoreLeases(lagging, { owner: 'b', ttlMs: TTL, clock });
    const refused = await advanceUntilSettled(clock, contender.acquire('c1', { waitMs: 2 * TTL }), TTL / 4).catch(
      (caught: unknown) => caught,
    );
    expect(refused).toMatchObject({ owner: 'a' });
    expect(refused).toBeInstanceOf(LeaseHeldError);
    await held.release();
    const next = await contender.acquire('c1');
    expect(next).toMatchObject({ generation: 2, previous: 'released' });
    await next.release();
    expect(await new FileStoreLeases(lagging, { owner: 'c', ttlMs: TTL, clock }).acquire('c1')).toMatchObject({
      generation: 3,
    });
  });

  it('gives up waiting for a live holder as soon as its wait is over, and does not take the lease then', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    // A holder on a long ttl: its heartbeat does not move during the whole wait, which ends at a look.
    const held = await new FileStoreLeases(store, { owner: 'live', ttlMs: 10 * TTL, clock }).acquire('c1');
    const waitMs = 2 * TTL;
    const started = clock.now();
    const refusedAt = await advanceUntilSettled(
      clock,
      new FileStoreLeases(store, { owner: 'waiting', ttlMs: TTL, clock }).acquire('c1', { waitMs }).then(
        () => Number.NaN,
        () => clock.now(),
      ),
      TTL / 4,
    );
    expect(refusedAt - started).toBeGreaterThanOrEqual(waitMs);
    // No look more once its wait is over: it looks every fifth of the holder's ttl.
    expect(refusedAt - started).toBeLessThan(waitMs + (10 * TTL) / 5);
    expect(held.signal.aborted).toBe(false);
    await held.assertHeld();
    await held.release();
  });

  it('reads a generation record it cannot parse as saying nothing: a dead holder is still taken over', async () => {
    const store = createMemoryFileStore();
    await store.writeIfAbsent('.leases/c1/gen-0000000001.json', 'not json');
    const clock = createManualClock();
    const contender = new FileStoreLeases(store, { owner: 'next', ttlMs: TTL, clock });
    const taken = await advanceUntilSettled(clock, contender.acquire('c1'), TTL / 4);
    expect(taken).toMatchObject({ generation: 2, previous: 'expired' });
  });

  it('ignores a ttl in a generation record that is no number of ms', async () => {
    const store = createMemoryFileStore();
    // 1e400 parses as Infinity.
    await store.writeIfAbsent('.leases/c1/gen-0000000001.json', '{"owner":"odd","ttl_ms":1e400}');
    const clock = createManualClock();
    const contender = new FileStoreLeases(store, { owner: 'next', ttlMs: TTL, clock });
    const taken = await advanceUntilSettled(clock, contender.acquire('c1', { waitMs: 10 * TTL }), TTL / 4);
    expect(taken.generation).toBe(2);
  });

  it('names an unknown owner when the holder’s record cannot be read', async () => {
    const store = createMemoryFileStore();
    const clock = createManualClock();
    const held = await new FileStoreLeases(store, { owner: 'live', ttlMs: TTL, clock }).acquire('c1');
    await store.write('.leases/c1/gen-0000000001.json', 'not json');
    const contender = new FileStoreLeases(store, { owner: 'next', ttlMs: TTL, clock });
    const refused = await advanceUntilSettled(clock, contender.acquire('c1', { waitMs: TTL }), TTL / 4).catch(
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(LeaseHeldError);
    expect(typeof (refused as LeaseHeldError).owner).toBe('string');
    expect((refused as LeaseHeldError).message).not.toContain('undefined');
    await held.release();
  });
});
