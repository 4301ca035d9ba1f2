import { afterEach, describe, expect, it } from 'vitest';
import { LeaseHeldError } from '../errors/lease-held-error.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import type { EventLogLike } from '../event-log/event-log-like.js';
import { fenceEventLog } from '../lease/fenced-event-log.js';
import type { Leases } from '../lease/lease.js';
import type { LeaseClock } from '../lease/lease-clock.js';
import { contractMessageEvent } from './event-log-contract.js';
import { advanceUntilSettled, createManualClock, type ManualClock } from './manual-clock.js';

/** Calls a location's leases await on their way to the backend, so a test can hang or pause them there. */
export interface LeasesContractHooks {
  /** Before the write that takes a generation (the generation file, the upsert of the lease row). */
  beforeTake?(): Promise<void>;
  /** Before every renewal's write (the heartbeat file, the `UPDATE` of the lease row): a renewal call that hangs. */
  beforeRenewal?(): Promise<void>;
  /** Before every read that looks for a takeover (the next generation's file, the lease row's generation). */
  beforeCheck?(): Promise<void>;
}

/** Where one backend's leases live for one test: fresh, shared by every `leases()` it hands out. */
export interface LeasesContractLocation {
  /** Leases of `owner` on this location, with `hooks` in their calls to the backend. */
  leases(options: { owner: string; ttlMs: number; clock: LeaseClock; hooks?: LeasesContractHooks }): Leases;
  /** A new instance of this location's one event log (as another process would open it). */
  openLog(): Promise<EventLogLike>;
  /** Called after the test; closes connections, drops tables. */
  cleanup?(): Promise<void>;
}

/**
 * The ttl of leases whose deadline only the holder's manual clock decides. A backend that expires rows by its own
 * clock (PostgreSQL) must not expire them while the test runs, however slowly: holders here renew only when the
 * test advances their clock. Not a multiple of 3, so no heartbeat (every third of a ttl) falls on a deadline.
 */
const TTL = 600_010;
/** The ttl of a lease a second owner takes over: expired by a database's clock in a fraction of a second. */
const SHORT_TTL = 200;
const KEY = 'conversation-1';

/**
 * A holder's clock over `manual`: `pause(ms)` moves its time on without firing a timer (the process was stopped,
 * or a GC or a hung call held its event loop), and heartbeats are not awaited by `manual.advance`, so a renewal that
 * hangs does not hold the test's clock still; `settled()` waits for every renewal started so far.
 */
function holderClock(manual: ManualClock): {
  clock: LeaseClock;
  pause(ms: number): void;
  settled(): Promise<void>;
} {
  let paused = 0;
  const ticks: Promise<unknown>[] = [];
  return {
    clock: {
      now: () => manual.now() + paused,
      sleep: (ms, signal) => manual.sleep(ms, signal),
      every: (ms, tick) =>
        manual.every(ms, () => {
          ticks.push(Promise.resolve(tick()));
        }),
    },
    pause: (ms) => {
      paused += ms;
    },
    settled: async () => {
      await Promise.all(ticks);
    },
  };
}

function textsOf(events: readonly object[]): string[] {
  return events.map(
    (event) => (event as { llm_message?: { content?: { text?: string }[] } }).llm_message?.content?.[0]?.text ?? '',
  );
}

/**
 * What every `Leases` backend promises (file stores, PostgreSQL): one owner at a time, a generation that fences a
 * stale owner's writes, and a holder that counts its lease lost at its deadline (a ttl after its last successful
 * renewal began) by its own clock, whether or not a renewal ever returned. Each test gets a fresh location.
 */
export function describeLeasesContract(
  name: string,
  makeLocation: () => Promise<LeasesContractLocation> | LeasesContractLocation,
): void {
  describe(`Leases contract: ${name}`, () => {
    const locations: LeasesContractLocation[] = [];
    const fresh = async (): Promise<LeasesContractLocation> => {
      const location = await makeLocation();
      locations.push(location);
      return location;
    };
    afterEach(async () => {
      for (const location of locations.splice(0)) await location.cleanup?.();
    });

    it('hands the lease to one owner at a time, renews it, and passes it on at release', async () => {
      const location = await fresh();
      const clock = createManualClock();
      const a = location.leases({ owner: 'a', ttlMs: TTL, clock });
      const b = location.leases({ owner: 'b', ttlMs: TTL, clock });
      const first = await a.acquire(KEY);
      expect(first).toMatchObject({ key: KEY, generation: 1, owner: 'a', previous: 'none' });
      expect(await first.renew()).toBe(true);
      // A file store's contender watches the heartbeat move before it refuses: the clock runs, the holder renews.
      const refused = advanceUntilSettled(clock, b.acquire(KEY), TTL / 4);
      await expect(refused).rejects.toBeInstanceOf(LeaseHeldError);
      await expect(refused).rejects.toThrow("'a'");
      expect(first.signal.aborted).toBe(false);
      await first.assertHeld();

      await first.release();
      expect(await first.renew()).toBe(false);
      const second = await b.acquire(KEY);
      expect(second).toMatchObject({ generation: 2, owner: 'b', previous: 'released' });
      await second.assertHeld();
      await second.release();
    });

    it('refuses assertHeld and renewals from the release on', async () => {
      const location = await fresh();
      const clock = createManualClock();
      const lease = await location.leases({ owner: 'a', ttlMs: TTL, clock }).acquire(KEY);
      const log = fenceEventLog(await location.openLog(), lease);
      await log.append(contractMessageEvent('held'));
      await lease.release();
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      expect(await lease.renew()).toBe(false);
      // Nothing of it keeps running: no heartbeat, no deadline watch.
      expect(clock.pending).toBe(0);
    });

    it('refuses assertHeld once its deadline passed with no renewal (a paused process)', async () => {
      const location = await fresh();
      const holder = holderClock(createManualClock());
      const lease = await location.leases({ owner: 'a', ttlMs: TTL, clock: holder.clock }).acquire(KEY);
      holder.pause(TTL - 1);
      await lease.assertHeld();
      expect(lease.signal.aborted).toBe(false);
      // Nobody took it over, yet another owner could have by now: the holder may no longer act on it.
      holder.pause(1);
      const refused = await lease.assertHeld().catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(LeaseLostError);
      expect(refused).toMatchObject({ leaseKey: KEY, generation: 1 });
      expect(lease.signal.aborted).toBe(true);
      expect(LeaseLostError.isInstance(lease.signal.reason)).toBe(true);
      // Waking up, a renewal does not give it back.
      expect(await lease.renew()).toBe(false);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      await lease.release();
    });

    it('counts its deadline from before the write that took the lease, not from its answer', async () => {
      const location = await fresh();
      const holder = holderClock(createManualClock());
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        hooks: {
          // The write lands (and a contender may start counting) only after half a ttl on the holder's clock.
          beforeTake: async () => holder.pause(TTL / 2),
        },
      });
      const lease = await leases.acquire(KEY);
      holder.pause(TTL / 2 - 1);
      await lease.assertHeld();
      holder.pause(1);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    });

    it('comes back lost, its signal aborted, when taking it took a whole ttl', async () => {
      const location = await fresh();
      const holder = holderClock(createManualClock());
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        hooks: { beforeTake: async () => holder.pause(TTL) },
      });
      const lease = await leases.acquire(KEY);
      expect(lease.signal.aborted).toBe(true);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    });

    it('counts a renewal from when it began, not from its answer', async () => {
      const location = await fresh();
      const holder = holderClock(createManualClock());
      let slow = false;
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        // The renewal's write lands (and moves the backend's expiry) up to half a ttl before its answer comes.
        hooks: { beforeRenewal: async () => (slow ? holder.pause(TTL / 2) : undefined) },
      });
      const lease = await leases.acquire(KEY);
      holder.pause(TTL / 4);
      const began = holder.clock.now();
      slow = true;
      expect(await lease.renew()).toBe(true);
      slow = false;
      holder.pause(began + TTL - 1 - holder.clock.now());
      await lease.assertHeld();
      holder.pause(1);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
    });

    it('refuses assertHeld when its deadline passed while the check was out', async () => {
      const location = await fresh();
      const holder = holderClock(createManualClock());
      let pausing = false;
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        hooks: {
          beforeCheck: async () => {
            if (pausing) holder.pause(TTL);
          },
        },
      });
      const lease = await leases.acquire(KEY);
      await lease.assertHeld();
      // The process stops while its read is out; the read then finds no takeover, but the answer is a ttl old.
      pausing = true;
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      expect(lease.signal.aborted).toBe(true);
    });

    it('does not renew itself back when its first heartbeat after a pause comes past the deadline', async () => {
      const location = await fresh();
      const manual = createManualClock();
      const holder = holderClock(manual);
      let renewals = 0;
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        hooks: {
          beforeRenewal: async () => {
            renewals++;
          },
        },
      });
      const lease = await leases.acquire(KEY);
      holder.pause(TTL);
      // Half a ttl by the manual clock fires the first heartbeat, not yet the deadline watch.
      await manual.advance(TTL / 2);
      await holder.settled();
      expect(lease.signal.aborted).toBe(true);
      // Nothing reached the backend: a renewal now would keep a contender off for a holder that has stopped.
      expect(renewals).toBe(0);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      await lease.release();
    });

    it('lets a second owner take an expired lease and fences the first: its writes are refused', async () => {
      const location = await fresh();
      // The first owner's clock never moves (it is paused and renews nothing); the contender's runs.
      const holder = await location.leases({ owner: 'a', ttlMs: SHORT_TTL, clock: createManualClock() }).acquire(KEY);
      const holderLog = fenceEventLog(await location.openLog(), holder);
      await holderLog.append(contractMessageEvent('by a'));
      const clock = createManualClock();
      const contender = location.leases({ owner: 'b', ttlMs: SHORT_TTL, clock });
      // One millisecond at a time: the new lease's own deadline runs on this clock from the moment it is taken, so
      // the clock must not race ahead of the acquisition's last round trip.
      const taken = await advanceUntilSettled(clock, contender.acquire(KEY, { waitMs: 1e9 }), 1);
      expect(taken).toMatchObject({ generation: 2, owner: 'b', previous: 'expired' });

      await expect(holderLog.append(contractMessageEvent('stale, by a'))).rejects.toBeInstanceOf(LeaseLostError);
      await expect(holder.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      expect(holder.signal.aborted).toBe(true);
      expect(await holder.renew()).toBe(false);
      // The loser's release leaves the new owner's lease alone.
      await holder.release();
      await taken.assertHeld();
      const log = fenceEventLog(await location.openLog(), taken);
      await log.append(contractMessageEvent('by b'));
      const reader = await location.openLog();
      expect(textsOf(await reader.range(0))).toEqual(['by a', 'by b']);
      await taken.release();
    });

    it('aborts its signal at the deadline while its renewals hang, and a late answer does not revive it', async () => {
      const location = await fresh();
      const manual = createManualClock();
      const holder = holderClock(manual);
      let hung = 0;
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        hooks: {
          beforeRenewal: () => {
            hung++;
            return answered;
          },
        },
      });
      const lease = await leases.acquire(KEY);
      await manual.advance(TTL - 1);
      await expect.poll(() => hung).toBeGreaterThan(0);
      expect(lease.signal.aborted).toBe(false);
      await lease.assertHeld();
      // No renewal returned, none failed: the deadline alone takes it.
      await manual.advance(1);
      expect(lease.signal.aborted).toBe(true);
      expect(LeaseLostError.isInstance(lease.signal.reason)).toBe(true);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      answer();
      await holder.settled();
      expect(await lease.renew()).toBe(false);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      await lease.release();
    });

    it('counts a renewal that returns past the deadline as too late, even before its deadline timer ran', async () => {
      const location = await fresh();
      const manual = createManualClock();
      const holder = holderClock(manual);
      let hanging = false;
      let hung = 0;
      let answer: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => {
        answer = resolve;
      });
      const leases = location.leases({
        owner: 'a',
        ttlMs: TTL,
        clock: holder.clock,
        hooks: {
          beforeRenewal: async () => {
            if (!hanging) return;
            hung++;
            await answered;
          },
        },
      });
      const lease = await leases.acquire(KEY);
      const acquiredAt = holder.clock.now();
      hanging = true;
      // Half a ttl by the manual clock: the first heartbeat begins, after the acquisition, and hangs.
      await manual.advance(TTL / 2);
      await expect.poll(() => hung).toBe(1);
      // The process stops until the deadline (a ttl after the acquisition), short of a ttl after that heartbeat
      // began; no timer runs meanwhile. Then the heartbeat's write returns.
      holder.pause(acquiredAt + TTL - holder.clock.now());
      answer();
      await holder.settled();
      expect(lease.signal.aborted).toBe(true);
      await expect(lease.assertHeld()).rejects.toBeInstanceOf(LeaseLostError);
      await lease.release();
    });
  });
}
