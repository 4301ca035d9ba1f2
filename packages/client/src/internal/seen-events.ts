/** The ids of the most recent events received (bounded), to drop the ones a `resend_mode=since` replay repeats. */
export class SeenEvents {
  readonly #ids = new Set<string>();
  readonly #order: string[] = [];
  readonly #capacity: number;

  constructor(capacity = 5_000) {
    this.#capacity = capacity;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  add(id: string): void {
    if (this.#ids.has(id)) return;
    this.#ids.add(id);
    this.#order.push(id);
    if (this.#order.length > this.#capacity) {
      const dropped = this.#order.shift();
      if (dropped !== undefined) this.#ids.delete(dropped);
    }
  }
}
