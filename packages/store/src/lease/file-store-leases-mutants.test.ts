import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { InvalidPathError } from '../errors/invalid-path-error.js';
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
      expect(() => new FileStoreLeases(store, { ttlMs }), `ttlMs ${ttlMs}`).toThrow(RangeError);
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
