import { pathHasEventId } from './file-names.js';

const PREFIX_LENGTH = 'event-'.length;
const SUFFIX_LENGTH = '.json'.length;
/** Paths the table holds before it first grows (then it doubles). */
const INITIAL_CAPACITY = 1024;

/**
 * id → the first index holding it, over a log's event file paths, without a string per id: an
 * open-addressing table of (hash of the id in the path, index + 1) in two typed arrays, filled from the
 * paths as they are (the id is hashed where it sits in the path, never sliced out). 100k events take
 * 2 MB and about as long to index as two scans of the paths; a `Map` of sliced ids took several times
 * both. A hit is confirmed against the path itself, so hash collisions cost a comparison, never a wrong
 * answer. Linear probing with no deletion keeps the earliest index of a repeated id first on its probe
 * sequence, so the first index wins, as in the reference.
 */
export class PathIdTable {
  /** The hash of the id of the path at each index, for the indices below `#indexedUpTo`. */
  #hashes = new Int32Array(INITIAL_CAPACITY);
  /** Open addressing: index + 1 of a path in each slot; 0 is an empty slot. Kept at most half full. */
  #slots = new Int32Array(INITIAL_CAPACITY * 2);
  /** Paths below this index are in the table. */
  #indexedUpTo = 0;

  /** Indexes `paths[indexedUpTo..]`, then finds `id`: the first index whose path holds it, or undefined. */
  find(paths: readonly string[], id: string): number | undefined {
    for (let index = this.#indexedUpTo; index < paths.length; index++) this.#add(index, hashOfPathId(paths[index]!));
    this.#indexedUpTo = paths.length;
    const hash = hashOfId(id);
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot]!;
      if (stored === 0) return undefined;
      if (this.#hashes[stored - 1] === hash && pathHasEventId(paths[stored - 1]!, id)) return stored - 1;
    }
  }

  #add(index: number, hash: number): void {
    if (index >= this.#hashes.length) {
      const hashes = new Int32Array(this.#hashes.length * 2);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
      // Twice as many slots, filled again in index order: the earliest of a repeated id stays first.
      this.#slots = new Int32Array(hashes.length * 2);
      for (let earlier = 0; earlier < index; earlier++) this.#place(earlier, hashes[earlier]!);
    }
    this.#hashes[index] = hash;
    this.#place(index, hash);
  }

  #place(index: number, hash: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = hash & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = index + 1;
  }
}

/** FNV-1a over the id's UTF-16 code units, mixed so that the low bits (the slot) depend on all of them. */
function hashOfId(id: string): number {
  return hashRange(id, 0, id.length);
}

/** The same hash for the id inside a valid event file path (`…/event-{index}-{id}.json`). */
function hashOfPathId(path: string): number {
  const digitsStart = path.lastIndexOf('/') + 1 + PREFIX_LENGTH;
  return hashRange(path, path.indexOf('-', digitsStart) + 1, path.length - SUFFIX_LENGTH);
}

function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let cursor = start; cursor < end; cursor++) hash = Math.imul(hash ^ text.charCodeAt(cursor), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  return hash ^ (hash >>> 13);
}
