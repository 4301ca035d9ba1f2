import { setTimeout as sleep } from 'node:timers/promises';
import { isConnectionFailure } from './pg-errors.js';

/**
 * Runs `work`, and again after a connection failure (the database restarting, a dropped
 * connection), with backoff up to 1 s, for at most `forMs`. Only for work that is safe to repeat.
 */
export async function retryOnConnectionFailure<T>(work: () => Promise<T>, forMs: number): Promise<T> {
  const deadline = performance.now() + forMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    try {
      return await work();
    } catch (error) {
      if (!isConnectionFailure(error) || performance.now() + delay > deadline) throw error;
      await sleep(delay);
    }
  }
}
