import { pathHasEventId } from './file-names.js';

const SUFFIX_LENGTH = '.json'.length;
/** Ids at least this long are found through their fingerprint; shorter ones by comparing every path. */
const FINGERPRINT_CHARS = 4;

/** Paths by index: an array, or a `PathList`. */
export interface PathSource {
  readonly length: number;
  at(index: number): string | undefined;
}

/**
 * id → the first index holding it, over a log's event file paths, with no string per id: one 32-bit
 * fingerprint per path (the last four characters of its id, read where they sit in the path) in a typed
 * array, and an open-addressing table of indices keyed by it. A hit is confirmed against the path itself,
 * so an equal fingerprint costs one comparison, never a wrong answer; indices are placed in order, so the
 * first index of a repeated id comes first on its probe sequence (the first wins, as in the reference).
 * For 100k events: 1.2 MB, built from 100k reads of four characters (none when seeded from a name index),
 * and a lookup is O(1). A `Map` of sliced ids took ~10 MB and a string per id.
 */
export class PathIdTable {
  // Small at first, grown by doubling: a server holds thousands of short logs open at once (a fixed 12 KB each
  // was most of what an open conversation kept outside the JS heap).
  #fingerprints = new Int32Array(16);
  /** Paths below this index have their fingerprint. */
  #fingerprinted = 0;
  /** index + 1 per slot (0: empty), keyed by fingerprint; at most half full. */
  #slots = new Int32Array(32);
  /** Paths below this index are in `#slots`. */
  #placed = 0;

  /**
   * Fingerprints the `count` paths adopted at `from` (where the table stands) from a name index's text,
   * where name i ends just before `starts[i + 1] - 1` (see `PathList`): no path string is read.
   */
  seed(from: number, text: string, starts: Int32Array, count: number): void {
    if (from !== this.#fingerprinted) return;
    this.#reserve(from + count);
    const fingerprints = this.#fingerprints;
    for (let index = 0; index < count; index++) {
      fingerprints[from + index] = fingerprintAt(text, starts[index + 1]! - 1 - SUFFIX_LENGTH);
    }
    this.#fingerprinted = from + count;
  }

  /** Indexes the paths added since the last call, then finds `id`: the first index whose path holds it, or undefined. */
  find(paths: PathSource, id: string): number | undefined {
    const length = this.#fingerprint(paths);
    if (id.length < FINGERPRINT_CHARS) {
      for (let index = 0; index < length; index++) if (pathHasEventId(paths.at(index)!, id)) return index;
      return undefined;
    }
    this.#place(length);
    const wanted = fingerprintAt(id, id.length);
    const fingerprints = this.#fingerprints;
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = spread(wanted) & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot]!;
      if (stored === 0) return undefined;
      if (fingerprints[stored - 1] === wanted && pathHasEventId(paths.at(stored - 1)!, id)) return stored - 1;
    }
  }

  /**
   * Whether `index`, whose path holds `id`, is the first index holding it (`find(paths, id) === index`), comparing
   * paths only where an earlier one has the same fingerprint: indices are placed in order, so every earlier index
   * with this fingerprint comes before `index` on its probe sequence. The packed read cache asks this of every
   * event it serves, where `find`'s comparison of the path found was most of the cost.
   */
  isFirstIndexOf(paths: PathSource, index: number, id: string): boolean {
    const length = this.#fingerprint(paths);
    if (id.length < FINGERPRINT_CHARS || index >= length) return this.find(paths, id) === index;
    this.#place(length);
    const wanted = fingerprintAt(id, id.length);
    const fingerprints = this.#fingerprints;
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = spread(wanted) & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot]!;
      if (stored === 0 || stored - 1 === index) return stored !== 0;
      if (fingerprints[stored - 1] === wanted && pathHasEventId(paths.at(stored - 1)!, id)) return false;
    }
  }

  /** Fingerprints the paths added since the last call; returns how many paths there are. */
  #fingerprint(paths: PathSource): number {
    const length = paths.length;
    this.#reserve(length);
    const fingerprints = this.#fingerprints;
    for (let index = this.#fingerprinted; index < length; index++) {
      const path = paths.at(index)!;
      fingerprints[index] = fingerprintAt(path, path.length - SUFFIX_LENGTH);
    }
    this.#fingerprinted = length;
    return length;
  }

  #reserve(length: number): void {
    if (length <= this.#fingerprints.length) return;
    const grown = new Int32Array(Math.max(length, this.#fingerprints.length * 2));
    grown.set(this.#fingerprints.subarray(0, this.#fingerprinted));
    this.#fingerprints = grown;
  }

  /** Puts indices `#placed..upTo` in the table, growing it (and placing every index again, in order) when needed. */
  #place(upTo: number): void {
    if (upTo * 2 > this.#slots.length) {
      let capacity = this.#slots.length;
      while (upTo * 2 > capacity) capacity *= 2;
      this.#slots = new Int32Array(capacity);
      this.#placed = 0;
    }
    const slots = this.#slots;
    const mask = slots.length - 1;
    const fingerprints = this.#fingerprints;
    for (let index = this.#placed; index < upTo; index++) {
      let slot = spread(fingerprints[index]!) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.#placed = upTo;
  }
}

/** Mixes a fingerprint's bits (four ASCII characters vary most in their low bits) into the slot's. */
function spread(fingerprint: number): number {
  const mixed = Math.imul(fingerprint ^ (fingerprint >>> 16), 0x45d9f3b);
  return mixed ^ (mixed >>> 15);
}

/** The four UTF-16 code units before `end`, folded into 32 bits (exact for ASCII, which ids are). */
function fingerprintAt(text: string, end: number): number {
  return (
    (text.charCodeAt(end - 4) << 24) ^
    (text.charCodeAt(end - 3) << 16) ^
    (text.charCodeAt(end - 2) << 8) ^
    text.charCodeAt(end - 1)
  );
}
