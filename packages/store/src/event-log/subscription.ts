import type { AnyEvent } from '@x/events';

/** One event with its position in the log, as subscriptions deliver it. */
export interface LogEntry {
  readonly index: number;
  readonly event: AnyEvent;
}

/** Options for `EventLog.subscribe` and `EventLog.listen`. */
export interface SubscribeOptions {
  /** Ends the subscription: the iterator finishes (no error) once the signal aborts. */
  signal?: AbortSignal;
  /** How often to look for other writers' appends while caught up. Defaults to the log's `pollIntervalMs`. */
  pollIntervalMs?: number;
}

/** What a subscription needs from the log; `EventLog` provides it. */
export interface SubscriptionSource {
  readonly length: number;
  readRange(start: number, end: number): Promise<AnyEvent[]>;
  /** Resolves once `length > known`, the signal aborts, or a poll (refresh) finds nothing new. */
  waitForGrowth(known: number, options: { signal?: AbortSignal; pollIntervalMs: number }): Promise<void>;
}

const BATCH = 64;

/**
 * Yields every event from `fromIndex` on, first those already stored, then each one as it arrives.
 * It walks a cursor over indices, so nothing is skipped or repeated however appends interleave with
 * it: an index is yielded only once it is below `length`, and `length` only grows.
 */
export async function* subscribeToLog(
  source: SubscriptionSource,
  fromIndex: number,
  options: SubscribeOptions & { pollIntervalMs: number },
): AsyncGenerator<LogEntry, void, undefined> {
  const { signal, pollIntervalMs } = options;
  let next = fromIndex < 0 ? Math.max(0, source.length + fromIndex) : fromIndex;
  while (!signal?.aborted) {
    if (next < source.length) {
      const end = Math.min(source.length, next + BATCH);
      const events = await source.readRange(next, end);
      for (const event of events) {
        if (signal?.aborted) return;
        yield { index: next, event };
        next++;
      }
      continue;
    }
    await source.waitForGrowth(next, { signal, pollIntervalMs });
  }
}

/**
 * Callback form of a subscription: calls `listener` for each entry in order (awaiting it), until the
 * returned function is called or the signal aborts. Errors (a failed read or refresh, or a throwing
 * listener) end the subscription and go to `onError`.
 */
export function listenToLog(
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
