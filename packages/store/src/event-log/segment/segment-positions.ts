import { SegmentInvariantError } from '../../errors/segment-invariant-error.js';

/**
 * Where each event's bytes are in the segment, by index: its offset and length. Those read from a segment index
 * stay in the typed array it was decoded into (no number boxed per event); later ones are pushed one by one.
 */
export class SegmentPositions {
  #adopted: Float64Array = new Float64Array(0);
  #adoptedCount = 0;
  /** Offset and length of each event after the adopted ones, flattened. */
  readonly #pushed: number[] = [];

  get length(): number {
    return this.#adoptedCount + this.#pushed.length / 2;
  }

  /** Takes `count` (offset, length) pairs from `pairs` as the first positions; only on an empty list. */
  adopt(pairs: Float64Array, count: number): void {
    if (this.length !== 0) {
      // Cannot happen (only an open adopts, into its new list): adopted over pushed positions, reads would go astray.
      throw new SegmentInvariantError({
        problem: `the positions of ${count} events from a segment index were to be adopted over ${this.length} known`,
      });
    }
    this.#adopted = pairs;
    this.#adoptedCount = count;
  }

  push(offset: number, length: number): void {
    this.#pushed.push(offset, length);
  }

  /** Event `index`'s bytes are now at `offset` (a repair record's, appended after the damaged one). */
  move(index: number, offset: number, length: number): void {
    const [list, at] =
      index < this.#adoptedCount ? [this.#adopted, index * 2] : [this.#pushed, (index - this.#adoptedCount) * 2];
    list[at] = offset;
    list[at + 1] = length;
  }

  offsetOf(index: number): number {
    return index < this.#adoptedCount ? this.#adopted[index * 2]! : this.#pushed[(index - this.#adoptedCount) * 2]!;
  }

  lengthOf(index: number): number {
    return index < this.#adoptedCount
      ? this.#adopted[index * 2 + 1]!
      : this.#pushed[(index - this.#adoptedCount) * 2 + 1]!;
  }

  /** The pairs of indices 0..count-1, flattened, as a segment index stores them. */
  pairs(count: number): Float64Array {
    const pairs = new Float64Array(count * 2);
    const adopted = Math.min(count, this.#adoptedCount);
    pairs.set(this.#adopted.subarray(0, adopted * 2));
    for (let index = adopted; index < count; index++) {
      pairs[index * 2] = this.offsetOf(index);
      pairs[index * 2 + 1] = this.lengthOf(index);
    }
    return pairs;
  }
}
