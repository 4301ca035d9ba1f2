import type { AnyEvent } from '@x/events';
import { CorruptEventError, type EventLogLike } from '@x/store';

const CHUNK = 256;

/**
 * The events at indices [from, to), with `undefined` in place of any whose file is corrupt. A
 * conversation must stay usable when one event file is damaged: the state fold counts it, the view
 * leaves it out, and the EventLog still reports it (CorruptEventError naming the file) to anyone who
 * reads that index directly. Reads go in chunks through `range`, which reads files in parallel.
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
            if (CorruptEventError.isInstance(reason)) return undefined;
            throw reason;
          }),
        );
      }
    }
    yield* chunk;
  }
}
