/** What waiting for a log to grow needs from it. */
export interface GrowingLog {
  length(): number;
  /** Calls `wake` with the index of each append the database announces (+∞: "read the table"); returns the stop. */
  watch(wake: (index: number) => void): () => void;
  /** Woken by this instance's own appends and reads (each called once, then dropped by the waiter). */
  readonly waiters: Set<() => void>;
  /** Reads what other writers appended (shared between the subscriptions woken together). */
  refresh(): Promise<unknown>;
}

/**
 * Waits for `length > known`: a local append, a notification from the database, or a poll. Then reads the table,
 * unless this instance already has what woke it (its own append, or another subscription's read).
 */
export async function waitForGrowth(
  log: GrowingLog,
  options: { known: number; signal: AbortSignal | undefined; pollIntervalMs: number },
): Promise<void> {
  const { known, signal, pollIntervalMs } = options;
  if (log.length() > known || signal?.aborted) return;
  // The highest index a notification announced (-1: none; woken by a local append, the poll or the signal).
  let notified = -1;
  await new Promise<void>((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      log.waiters.delete(wake);
      unwatch();
      signal?.removeEventListener('abort', wake);
      resolve();
    };
    const timer = setTimeout(wake, pollIntervalMs);
    const unwatch = log.watch((index) => {
      if (index >= known) {
        notified = Math.max(notified, index);
        wake();
      }
    });
    log.waiters.add(wake);
    signal?.addEventListener('abort', wake, { once: true });
  });
  if (log.length() <= Math.max(known, notified) && !signal?.aborted) await log.refresh();
}
