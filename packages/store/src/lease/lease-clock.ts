import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The time a lease lives by: a monotonic `now`, waits and a repeating timer. Leases take it as an option
 * so tests can drive expiry and heartbeats step by step (`createManualClock` in `@x/store/testing`)
 * instead of depending on how fast a loaded machine runs real timers; production uses `systemLeaseClock`.
 */
export interface LeaseClock {
  /** Milliseconds on a monotonic clock (like `performance.now()`); only differences are meaningful. */
  now(): number;
  /** Resolves after `ms` by this clock; rejects with the signal's reason once `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `tick` every `ms` until the returned function is called. The timer never keeps the process alive.
   * `tick` may return a promise (a renewal under way); a manual clock waits for it before moving on.
   */
  every(ms: number, tick: () => unknown): () => void;
}

/** Real time: `performance.now()`, `setTimeout` and an unref'd `setInterval`. */
export const systemLeaseClock: LeaseClock = {
  now: () => performance.now(),
  sleep: async (ms, signal) => {
    try {
      await sleep(ms, undefined, signal === undefined ? undefined : { signal });
    } catch {
      // Node rejects only on abort, with its own AbortError; callers are promised the reason they aborted with.
      throw signal?.reason;
    }
  },
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};
