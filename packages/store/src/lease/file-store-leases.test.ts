import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { userMessageEvent } from '../../test/helpers/events.js';
import { partitionable } from '../../test/helpers/partitionable-store.js';
import { LeaseHeldError } from '../errors/lease-held-error.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import { EventLog } from '../event-log.js';
import { createLocalFileStore } from '../local-file-store.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import { advanceUntilSettled, createManualClock } from '../testing/manual-clock.js';
import { fenceEventLog } from './fenced-event-log.js';
import { FileStoreLeases } from './file-store-leases.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

for (const [name, makeStore] of [
  ['memory', async () => createMemoryFileStore()],
  [
    'local',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'x-leases-'));
      roots.push(root);
      return createLocalFileStore({ root, durability: 'none' });
    },
  ],
] as const) {
  // Every lease runs on a manual clock: expiry and heartbeats happen when the test advances time, so a slow
  // or loaded machine (timers firing late, file writes taking long) cannot make a live holder look dead.
  describe(`FileStoreLeases on the ${name} store`, () => {
    const TTL = 200;
    const STEP = TTL / 4;
    it('gives a lease to one owner at a time; a release lets the next take the next generation', async () => {
      const store = await makeStore();
      const clock = createManualClock();
      const a = new FileStoreLeases(store, { owner: 'a', ttlMs: TTL, clock });
      const b = new FileStoreLeases(store, { owner: 'b', ttlMs: TTL, clock });
      const held = await a.acquire('c1');
      expect(held.generation).toBe(1);
      const refused = await advanceUntilSettled(clock, b.acquire('c1'), STEP).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(LeaseHeldError);
      expect(refused).toMatchObject({ leaseKey: 'c1', owner: 'a' });
      await held.release();
      const next = await b.acquire('c1');
      expect(next).toMatchObject({ generation: 2, previous: 'released' });
      await expect(held.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      await next.release();
    });

    it('lets exactly one of several racing owners take a free lease', async () => {
      const store = await makeStore();
      const clock = createManualClock();
      const racing = Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          new FileStoreLeases(store, { owner: `o${i}`, ttlMs: TTL, clock }).acquire('race'),
        ),
      );
      const results = await advanceUntilSettled(clock, racing, STEP);
      const won = results.filter((result) => result.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const result of results)
        if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(LeaseHeldError);
      if (won[0]?.status === 'fulfilled') await won[0].value.release();
    });

    it('takes over from a holder that stopped renewing and refuses that holder’s fenced appends', async () => {
      const shared = await makeStore();
      const { store: holderStore, cut } = partitionable(shared);
      const clock = createManualClock();
      const lease = await new FileStoreLeases(holderStore, { owner: 'paused', ttlMs: TTL, clock }).acquire('c2');
      const oldLog = fenceEventLog(await EventLog.open(holderStore, { dir: 'c2/events' }), lease);
      expect(await oldLog.append(userMessageEvent('before'))).toBe(0);
      cut.on = true;
      const taking = new FileStoreLeases(shared, { owner: 'survivor', ttlMs: TTL, clock }).acquire('c2', {
        waitMs: 100 * TTL,
      });
      const taken = await advanceUntilSettled(clock, taking, STEP);
      // The survivor watched the heartbeat stand still for a whole ttl, no less.
      expect(clock.now()).toBeGreaterThanOrEqual(TTL);
      expect(taken).toMatchObject({ generation: 2, previous: 'expired' });
      const newLog = fenceEventLog(await EventLog.open(shared, { dir: 'c2/events' }), taken);
      expect(await newLog.append(userMessageEvent('after'))).toBe(1);
      cut.on = false;
      await expect(oldLog.append(userMessageEvent('zombie'))).rejects.toBeInstanceOf(LeaseLostError);
      expect(lease.signal.aborted).toBe(true);
      expect((await EventLog.open(shared, { dir: 'c2/events' })).length).toBe(2);
      await taken.release();
    });

    it('waits for a live holder with waitMs, and fails after it while the holder keeps renewing', async () => {
      const store = await makeStore();
      const clock = createManualClock();
      const held = await new FileStoreLeases(store, { owner: 'live', ttlMs: TTL, clock }).acquire('c3');
      const contender = new FileStoreLeases(store, { owner: 'contender', ttlMs: TTL, clock });
      const started = clock.now();
      const refused = advanceUntilSettled(clock, contender.acquire('c3', { waitMs: 5 * TTL }), STEP);
      await expect(refused).rejects.toBeInstanceOf(LeaseHeldError);
      // It kept waiting through several ttls of a live heartbeat, and gave up once its wait was over.
      expect(clock.now() - started).toBeGreaterThanOrEqual(5 * TTL);
      const waiting = contender.acquire('c3', { waitMs: 100 * TTL });
      await held.release();
      const next = await advanceUntilSettled(clock, waiting, STEP);
      expect(next.generation).toBe(2);
      // Released, so its heartbeat stops writing before the directory is removed.
      await next.release();
    });
  });
}
