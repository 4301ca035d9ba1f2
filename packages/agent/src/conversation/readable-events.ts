import type { AnyEvent } from '@x/events';
import { CorruptEventError, type EventLogLike } from '@x/store';

const CHUNK = 256;

/**
 * The events at indices [from, to), with `undefined` in place of any whose file is corrupt. A
 * conversation must stay usable when one event file is damaged: the state fold counts it, the view
 * leaves it out, and the EventLog still reports it (CorruptEventError naming the file) to anyone who
 * reads that index directly. Leaving an event out of what the model sees is never silent: each damaged
 * file is reported once per process as a warning (`warnDamagedEvent`).
 * Reads go in chunks through `range`, which reads files in parallel.
 */
export async function* readableEvents(
  log: EventLogLike,
  from: number,
  to: number = log.length,
): AsyncGenerator<AnyEvent | undefined> {
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    let chunk: (AnyEvent | undefined)[];
    try {
      chunk = await log.range(start, end);
    } catch (error) {
      if (!CorruptEventError.isInstance(error)) throw error;
      chunk = [];
      for (let index = start; index < end; index++) {
        chunk.push(
          await log.get(index).catch((reason: unknown) => {
            if (!CorruptEventError.isInstance(reason)) throw reason;
            warnDamagedEvent(index, reason);
            return undefined;
          }),
        );
      }
    }
    yield* chunk;
  }
}

/** Damaged files already reported; bounded so a process reading many damaged logs does not grow it forever. */
const reported = new Set<string>();
const REPORTED_LIMIT = 4096;

/**
 * Tells the process (a Node warning, code `X_DAMAGED_EVENT`, which `process.on('warning')` receives and Node
 * prints to stderr by default) that an event is left out of the conversation's history, naming its file and
 * what is wrong with it: the rest of the conversation goes on, but its user must be able to see why the model
 * no longer sees that event.
 */
export function warnDamagedEvent(index: number, error: CorruptEventError): void {
  const key = `${error.location}\n${error.problem}`;
  if (reported.has(key)) return;
  if (reported.size >= REPORTED_LIMIT) reported.clear();
  reported.add(key);
  process.emitWarning(
    `Event ${index} is left out of the conversation's history (the file is kept as it is): ${error.message}`,
    { code: 'X_DAMAGED_EVENT' },
  );
}
