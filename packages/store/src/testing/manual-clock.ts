import type { LeaseClock } from '../lease/lease-clock.js';
import { fileSystemQuiet } from './file-system-quiet.js';

/** A `LeaseClock` whose time moves only when the test says so. */
export interface ManualClock extends LeaseClock {
  /**
   * Moves time forward by `ms`, firing every timer and wait that falls due, in time order. A timer's tick
   * that returns a promise (a lease renewal) is awaited before time moves past it, so everything a tick
   * writes is visible to whatever wakes later.
   */
  advance(ms: number): Promise<void>;
  /** Waits and timers not yet due (for assertions that nothing is left waiting). */
  readonly pending: number;
}

interface Due {
  at: number;
  order: number;
  fire: () => unknown;
  cancelled: boolean;
}

/**
 * A manual `LeaseClock` for tests: no real time passes for leases built on it, so a lease expires, or is
 * renewed in time, exactly when the test advances the clock, however slowly the machine runs.
 */
export function createManualClock(start = 0): ManualClock {
  let current = start;
  let order = 0;
  const queue: Due[] = [];
  const schedule = (at: number, fire: () => unknown): Due => {
    const due: Due = { at, order: order++, fire, cancelled: false };
    queue.push(due);
    return due;
  };
  return {
    now: () => current,
    get pending() {
      return queue.filter((due) => !due.cancelled).length;
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const due = schedule(current + Math.max(0, ms), () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        const onAbort = () => {
          due.cancelled = true;
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    every(ms, tick) {
      const interval = Math.max(1, ms);
      let due: Due;
      const arm = (from: number) => {
        due = schedule(from + interval, async () => {
          arm(due.at);
          await tick();
        });
      };
      arm(current);
      return () => {
        due.cancelled = true;
      };
    },
    async advance(ms) {
      const target = current + ms;
      for (;;) {
        const live = queue.filter((due) => !due.cancelled && due.at <= target);
        if (live.length === 0) break;
        live.sort((a, b) => a.at - b.at || a.order - b.order);
        const next = live[0]!;
        queue.splice(queue.indexOf(next), 1);
        current = Math.max(current, next.at);
        await next.fire();
        // Lets whatever the fired wait or tick resumed run up to its next wait before time moves on: its file reads
        // and writes too, however long a loaded machine takes over them (time moving while a holder's write is out
        // would expire its lease for no fault of its own).
        await fileSystemQuiet();
      }
      for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.cancelled) queue.splice(i, 1);
      current = target;
    },
  };
}

/**
 * Settles `promise` while advancing `clock` by `stepMs` at a time, for a lease operation that waits on the
 * clock. Rejects with `promise`'s error. A step is taken only once no file system request of this process is in
 * flight, so time never moves while an acquisition or a renewal is still reading or writing its files, however
 * slowly the machine runs them. (I/O over sockets, as to PostgreSQL, is not seen: a test of such a backend keeps
 * its steps small.) The real millisecond between steps only paces the loop.
 */
export async function advanceUntilSettled<T>(clock: ManualClock, promise: Promise<T>, stepMs: number): Promise<T> {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  tracked.catch(() => undefined);
  while (!settled) {
    await fileSystemQuiet();
    if (settled) break;
    await clock.advance(stepMs);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return tracked;
}
