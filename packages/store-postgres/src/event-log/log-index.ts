import type { AnyEvent } from '@x/events';
import { DuplicateEventIdError } from '@x/store';

/**
 * What a `PostgresEventLog` holds of its rows in memory: every event id in index order (the log's length), and
 * the parsed events most recently read or written (least recently used dropped). Waiters are woken at each new id.
 */
export class LogIndex {
  readonly #ids: string[] = [];
  readonly #indexById = new Map<string, number>();
  readonly #cache = new Map<number, AnyEvent>();
  readonly #cacheSize: number;
  /** Called at every id pushed (subscriptions waiting for the log to grow). */
  readonly waiters = new Set<() => void>();
  /**
   * How many rows the last catch-up found past a missing index (a row deleted by hand): the log ends at the gap, and
   * appends are refused while this is above 0 (`LogGapError`). 0 when the rows end at the log's length.
   */
  rowsPastGap = 0;

  constructor(cacheSize: number) {
    this.#cacheSize = cacheSize;
  }

  get length(): number {
    return this.#ids.length;
  }

  /** The index of the event with that id, or undefined. */
  find(id: string): number | undefined {
    return this.#indexById.get(id);
  }

  /** The id at `index`, which `resolve` returned. */
  idAt(index: number): string {
    return this.#ids[index]!;
  }

  cached(index: number): AnyEvent | undefined {
    return this.#cache.get(index);
  }

  /** Adds the next id (and its event, when read); wakes the waiters. */
  push(id: string, event: AnyEvent | undefined): void {
    const index = this.#ids.length;
    this.#ids.push(id);
    if (!this.#indexById.has(id)) this.#indexById.set(id, index);
    if (event !== undefined) this.remember(index, event);
    for (const wake of [...this.waiters]) wake();
  }

  remember(index: number, event: AnyEvent): void {
    if (this.#cacheSize <= 0) return;
    this.#cache.delete(index);
    this.#cache.set(index, event);
    if (this.#cache.size > this.#cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
  }

  rejectDuplicate(id: string): void {
    const existing = this.#indexById.get(id);
    if (existing !== undefined) throw new DuplicateEventIdError(id, existing);
  }

  /** `index` (negative: from the end) as an index of the log, or undefined when out of range. */
  resolve(index: number): number | undefined {
    if (!Number.isInteger(index)) return undefined;
    const resolved = index < 0 ? this.length + index : index;
    return resolved >= 0 && resolved < this.length ? resolved : undefined;
  }
}
