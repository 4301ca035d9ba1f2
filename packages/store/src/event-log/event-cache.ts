/**
 * A bounded least-recently-used map from index to parsed event. A Map keeps insertion order, so
 * re-inserting on access moves an entry to the young end and the first key is always the oldest.
 */
export class EventCache<Value> {
  readonly #capacity: number;
  readonly #entries = new Map<number, Value>();

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`cacheSize must be a non-negative integer, got ${capacity}`);
    }
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(index: number): Value | undefined {
    const value = this.#entries.get(index);
    if (value !== undefined) {
      this.#entries.delete(index);
      this.#entries.set(index, value);
    }
    return value;
  }

  /** The value at `index` without marking it as used. */
  peek(index: number): Value | undefined {
    return this.#entries.get(index);
  }

  set(index: number, value: Value): void {
    if (this.#capacity === 0) return;
    this.#entries.delete(index);
    this.#entries.set(index, value);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }
}
