import type { LogEntry } from '@x/store';
import type { ManagedConversation } from './managed-conversation.js';

/** How long one wait for the run's end lasts before checking again (a run may be long; the stream stays). */
const RUN_WAIT_MS = 60_000;

/**
 * The conversation's log entries from `fromIndex` on, until its run is over and every event the run appended was
 * yielded (at once when no run is going and nothing is left to read), or `signal` aborts. What the protocol faces
 * stream: the log is the source, so a stream started from any index skips nothing and repeats nothing.
 */
export async function* runLogEntries(
  conversation: ManagedConversation,
  fromIndex: number,
  signal: AbortSignal,
): AsyncGenerator<LogEntry> {
  const log = conversation.log;
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  signal.addEventListener('abort', abort, { once: true });
  let sent = fromIndex;
  let endAt: number | undefined;
  const watchRun = (async () => {
    while (conversation.isRunning && !stop.signal.aborted) await conversation.waitForRun(RUN_WAIT_MS);
    endAt = log.length;
    if (sent >= endAt) stop.abort();
  })();
  try {
    if (fromIndex < log.length || conversation.isRunning) {
      for await (const entry of log.subscribe(fromIndex, { signal: stop.signal })) {
        yield entry;
        sent = entry.index + 1;
        if (endAt !== undefined && sent >= endAt) return;
      }
    }
  } finally {
    stop.abort();
    signal.removeEventListener('abort', abort);
    await watchRun;
  }
}
