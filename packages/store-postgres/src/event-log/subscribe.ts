import type { AnyEvent } from '@x/events';
import type { LogEntry } from '@x/store';

/** What a subscription needs from the log. */
export interface EntrySource {
  length(): number;
  readRange(start: number, end: number): Promise<AnyEvent[]>;
  /** Resolves once `length() > known`, the signal aborts, or a poll found nothing new. */
  waitForGrowth(known: number, signal: AbortSignal | undefined, pollIntervalMs: number): Promise<void>;
}

const BATCH = 100;

/**
 * Every event from `fromIndex` on, stored then live. A cursor walks the indices, and an index is
 * yielded only once it is below `length`, which only grows: no gap and no duplicate.
 */
export async function* subscribeToEntries(
  source: EntrySource,
  fromIndex: number,
  options: { signal?: AbortSignal | undefined; pollIntervalMs: number },
): AsyncGenerator<LogEntry, void, undefined> {
  const { signal, pollIntervalMs } = options;
  let next = fromIndex < 0 ? Math.max(0, source.length() + fromIndex) : fromIndex;
  while (!signal?.aborted) {
    if (next < source.length()) {
      const end = Math.min(source.length(), next + BATCH);
      for (const event of await source.readRange(next, end)) {
        if (signal?.aborted) return;
        yield { index: next, event };
        next++;
      }
      continue;
    }
    await source.waitForGrowth(next, signal, pollIntervalMs);
  }
}

/** Callback form: `listener` for each entry in order until stopped; errors end it and go to `onError`. */
export function listenToEntries(
  entries: (signal: AbortSignal) => AsyncIterable<LogEntry>,
  listener: (entry: LogEntry) => void | Promise<void>,
  options: { signal?: AbortSignal; onError?: (error: unknown) => void },
): () => void {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  void (async () => {
    try {
      for await (const entry of entries(controller.signal)) await listener(entry);
    } catch (error) {
      options.onError?.(error);
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  })();
  return stop;
}

/** `Array.prototype.slice` bound semantics. */
export function clampSliceBound(bound: number, length: number): number {
  const integer = Math.trunc(bound);
  if (integer < 0) return Math.max(0, length + integer);
  return Math.min(integer, length);
}
