import type { LeaseClock } from './lease-clock.js';

/**
 * Calls `onPassed` once `deadline()` (on `clock`) has passed, even while every renewal hangs; a lease backend aborts
 * its signal with it. The deadline is read again when the timer fires, so renewals that moved it on re-arm the
 * watch instead of ending it. A one-shot `every` rather than `sleep`, because the timer must not keep the process
 * alive. Returns the function that stops watching.
 */
export function watchLeaseDeadline(clock: LeaseClock, deadline: () => number, onPassed: () => void): () => void {
  let stopTimer = (): void => undefined;
  let stopped = false;
  const check = (): void => {
    if (stopped) return;
    const left = deadline() - clock.now();
    if (left <= 0) {
      onPassed();
      return;
    }
    stopTimer = clock.every(Math.ceil(left), () => {
      stopTimer();
      check();
    });
  };
  check();
  return () => {
    stopped = true;
    stopTimer();
  };
}
