import { setTimeout as sleep } from 'node:timers/promises';
import { isConnectionFailure } from './pg-errors.js';

/** First backoff cap and its ceiling (ms). */
const FIRST_CAP_MS = 50;
const MAX_CAP_MS = 1000;

export interface RetryTiming {
  /** A number in [0, 1) (default `Math.random`); tests pass their own. */
  random?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Runs `work`, and again after a connection failure (the database restarting, a dropped
 * connection), for at most `forMs`. Only for work that is safe to repeat.
 *
 * Backoff with full jitter (each wait uniform in [0, cap), the cap doubling from 50 ms to 1 s): replicas
 * that lose the database together, as when it restarts, would otherwise retry in lockstep and hit it
 * together at every attempt. A few lines of our own rather than a retry library: the policy is this one
 * loop, and its condition (`isConnectionFailure`) and deadline are ours anyway.
 */
export async function retryOnConnectionFailure<T>(
  work: () => Promise<T>,
  forMs: number,
  timing: RetryTiming = {},
): Promise<T> {
  const random = timing.random ?? Math.random;
  const wait = timing.sleep ?? sleep;
  const deadline = performance.now() + forMs;
  for (let cap = FIRST_CAP_MS; ; cap = Math.min(cap * 2, MAX_CAP_MS)) {
    try {
      return await work();
    } catch (error) {
      const delay = Math.floor(random() * cap);
      if (!isConnectionFailure(error) || performance.now() + delay > deadline) throw error;
      await wait(delay);
    }
  }
}
