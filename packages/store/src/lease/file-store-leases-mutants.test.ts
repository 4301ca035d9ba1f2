import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { InvalidPathError } from '../errors/invalid-path-error.js';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { LeaseHeldError } from '../errors/lease-held-error.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { advanceUntilSettled, createManualClock } from '../testing/manual-clock.js';
import { FileStoreLeases } from './file-store-leases.js';
import type { Leases } from './lease.js';

const TTL = 200;
const STEP = TTL / 4;

describe('FileStoreLeases options', () => {
  it('refuses a ttl that is not a whole number of ms of at least 50, and takes 50', () => {
    const store = createMemoryFileStore();
    for (const ttlMs of [0, 49, 50.5, Number.NaN])
      expect(() => new FileStoreLeases(store, { ttlMs }), `ttlMs ${ttlMs}`).toThrow(InvalidStoreOptionsError);
    expect(new FileStoreLeases(store, { ttlMs: 50 }).ttlMs).toBe(50);
    expect(new FileStoreLeases(store).ttlMs).toBe(15_000);
  });

  it('refuses an empty lease directory instead of writing somewhere else', async () => {
    const leases = new FileStoreLeases(createMemoryFileStore(), { dir: '' });
    await expect(leases.acquire('c1')).rejects.toBeInstanceOf(InvalidPathError);
  });

  it('names a default owner after this host and process, different for every instance', () => {
    const store = createMemoryFileStore();
    const first = new FileStoreLeases(store).owner;
    expect(first.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
    // Eight hex digits of a random UUID: the part that tells two processes of one host and pid apart.
    expect(first.slice(`${hostname()}:${process.pid}:`.length)).toMatch(/^[0-9a-f]{8}$/);
    expect(new FileStoreLeases(store).owner).not.toBe(first);
  });
});

describe('FileStoreLeases.acquire without waitMs', () => {
  it('still watches a silent holder for a whole ttl, then takes the lease over', async () => {
    const store = createMemoryFileStore();
    // The holder's clock never moves: a stopped process, whose heartbeat never comes.
    await new FileStoreLeases(store, { owner: 'stopped', ttlMs: TTL, clock: createManualClock() }).acquire('c1');
    const clock = createManualClock();
    // Through the interface callers program against (a conversation takes any `Leases`).
    const leases: Leases = new FileStoreLeases(store, { owner: 'next', ttlMs: TTL, clock });
    const taken = await advanceUntilSettled(clock, leases.acquire('c1'), STEP);
    expect(taken).toMatchObject({ generation: 2, previous: 'expired', owner: 'next' });
    expect(clock.now()).toBeGreaterThanOrEqual(TTL);
    await taken.release();
  });
});

describe('FileStoreLeases.acquire with a wait shorter than the ttl', () => {
  it("gives up when its wait is over, even though a silent holder's ttl would run out at the next look", async () => {
    const store = createMemoryFileStore();
    await new FileStoreLeases(store, { owner: 'stopped', ttlMs: TTL, clock: createManualClock() }).acquire('c1');
    const clock = createManualClock();
    const contender = new FileStoreLeases(store, { owner: 'next', ttlMs: TTL, clock });
    // It looks every fifth of the ttl; stepping by exactly that, each look sees the time it was due at.
    const look = TTL / 5;
    const outcome = await advanceUntilSettled(
      clock,
      contender.acquire('c1', { waitMs: 4 * look }).then(
        (lease) => ({ generation: lease.generation, at: clock.now() }),
        (error: unknown) => ({ error, at: clock.now() }),
      ),
      look,
    );
    expect(outcome).toMatchObject({ error: expect.any(LeaseHeldError), at: 4 * look });
  });
});
