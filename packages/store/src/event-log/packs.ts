import type { AnyEvent } from '@x/events';
import type { FileStore } from '../file-store.js';
import { padIndex } from './file-names.js';
import { isFileNotFound } from './is-file-not-found.js';
import { decodePack, encodePack, packsAvailable } from './pack-format.js';

/** Events per pack: each pack holds the aligned chunk [start, start + CHUNK). */
export const PACK_CHUNK = 1024;
/** A complete chunk is read from its pack when at least this many of the wanted events are not cached. */
const MIN_PACK_READ = 32;

/** What the packed reads need from the log (`EventLog` provides it). */
export interface PackHost {
  readonly store: FileStore;
  readonly dir: string;
  readonly warn: ((message: string) => void) | undefined;
  readonly length: number;
  /** The event file's name (no directory) at `index`, from the log's index. */
  nameAt(index: number): string;
  /** The cached event at `index`, without touching the LRU order. */
  peek(index: number): AnyEvent | undefined;
  /** Puts an event read from a pack into the log's cache (as a file read does). */
  remember(index: number, event: AnyEvent): void;
  /** Reads events from their files, as without packs; results in the order of `indices`. */
  loadFiles(indices: readonly number[]): Promise<AnyEvent[]>;
}

/**
 * The packed read cache of one `EventLog` (see the package README, "Packed read cache"): packs in
 * `<dir>/.slots/packs/{start:05d}.pack`, each the events of one aligned chunk of `chunkSize` indices,
 * read with one `store` read and one `JSON.parse`. A pack is used only when its header's file names
 * equal the log's names for its indices and its checksum matches; a missing, unreadable or disagreeing
 * pack means reading the event files, and the pack is (re)written once the whole chunk has been read.
 */
export class PackedReads {
  readonly #host: PackHost;
  readonly #chunk: number;
  /** Chunks whose pack was missing or unusable here: read from files until this instance rewrites it. */
  readonly #absent = new Set<number>();
  /** Chunks whose pack this instance is writing or could not write (never retried). */
  readonly #writing = new Set<number>();
  readonly #pending = new Set<Promise<void>>();
  /** The chunk a sequential reader stopped inside of, so its next batch needs no second pack read. */
  #recent: { start: number; events: AnyEvent[] } | undefined;

  constructor(host: PackHost, chunkSize: number = PACK_CHUNK) {
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
      throw new RangeError(`packs.chunkSize must be a positive integer, got ${chunkSize}`);
    }
    this.#host = host;
    this.#chunk = chunkSize;
  }

  /** Packs need `zlib.crc32` (Node ≥ 20.15); without it the log reads files only. */
  static available(): boolean {
    return packsAvailable();
  }

  /** Events in [start, end) (within the log's length): complete chunks from packs, the rest from files. */
  async readRange(start: number, end: number): Promise<AnyEvent[]> {
    const host = this.#host;
    const chunk = this.#chunk;
    const results = new Array<AnyEvent>(end - start);
    const fromFiles: number[] = [];
    const unpacked: number[] = [];
    let packsRead = 0;
    for (let first = start - (start % chunk); first < end; first += chunk) {
      const from = Math.max(start, first);
      const to = Math.min(end, first + chunk);
      const complete = first + chunk <= host.length;
      // Let other work in between packs (a local store without fsync reads synchronously).
      if (packsRead > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const events = complete ? await this.#packedEvents(first, from, to) : undefined;
      if (events === undefined) {
        for (let index = from; index < to; index++) fromFiles.push(index);
        if (complete && this.#absent.has(first)) unpacked.push(first);
        continue;
      }
      for (let index = from; index < to; index++) {
        const event = host.peek(index) ?? events[index - first]!;
        host.remember(index, event);
        results[index - start] = event;
      }
      // A reader that stopped inside the chunk will likely read on: keep it until it moves elsewhere.
      this.#recent = to < first + chunk ? { start: first, events } : undefined;
      packsRead++;
    }
    if (fromFiles.length > 0) {
      const read = await host.loadFiles(fromFiles);
      fromFiles.forEach((index, position) => {
        results[index - start] = read[position]!;
      });
    }
    for (const first of unpacked)
      this.#writeWhenComplete(first, (index) => (index >= start && index < end ? results[index - start] : undefined));
    return results;
  }

  /** Called once the append at `index` resolved: a chunk it completed is packed from the cache, if all there. */
  appended(index: number): void {
    const first = index + 1 - this.#chunk;
    if ((index + 1) % this.#chunk !== 0 || first < 0) return;
    this.#writeWhenComplete(first, () => undefined);
  }

  /** Resolves once every pack write started so far has finished (failures are warned about, never thrown). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
  }

  /** The pack's events when the chunk should be read from it and it is usable, else undefined. */
  async #packedEvents(first: number, from: number, to: number): Promise<AnyEvent[] | undefined> {
    if (this.#recent?.start === first) return this.#recent.events;
    if (this.#absent.has(first)) return undefined;
    let uncached = 0;
    for (let index = from; index < to; index++) if (this.#host.peek(index) === undefined) uncached++;
    if (uncached < Math.min(MIN_PACK_READ, this.#chunk)) return undefined;
    const events = await this.#readPack(first);
    if (events === undefined) this.#absent.add(first);
    return events;
  }

  async #readPack(first: number): Promise<AnyEvent[] | undefined> {
    const { store } = this.#host;
    const path = this.#packPath(first);
    let data: Uint8Array | string;
    try {
      if (store.readBatch) {
        const [read] = await store.readBatch([path]);
        if (!(read instanceof Uint8Array)) throw read;
        data = read;
      } else {
        data = await store.read(path);
      }
    } catch (error) {
      if (!isFileNotFound(error))
        this.#warn(`${store.describe(path)}: packed read cache not readable (${message(error)})`);
      return undefined;
    }
    const names = new Array<string>(this.#chunk);
    for (let k = 0; k < this.#chunk; k++) names[k] = this.#host.nameAt(first + k);
    const decoded = decodePack(data, { start: first, names, location: store.describe(path) });
    if ('problem' in decoded) {
      this.#warn(
        `${store.describe(path)}: packed read cache ignored, ${decoded.problem}; it is rewritten from the event files`,
      );
      return undefined;
    }
    return decoded.events;
  }

  /**
   * Writes the pack of chunk `first` when every one of its events is at hand (from `known` or the cache),
   * after the current call returns (never on a read's or an append's latency path). Best effort.
   */
  #writeWhenComplete(first: number, known: (index: number) => AnyEvent | undefined): void {
    if (this.#writing.has(first) || first + this.#chunk > this.#host.length) return;
    const events = new Array<AnyEvent>(this.#chunk);
    const names = new Array<string>(this.#chunk);
    for (let k = 0; k < this.#chunk; k++) {
      const event = known(first + k) ?? this.#host.peek(first + k);
      if (event === undefined) return;
      events[k] = event;
      names[k] = this.#host.nameAt(first + k);
    }
    this.#writing.add(first);
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#host.store.write(this.#packPath(first), encodePack({ start: first, names, events })))
      .then(
        () => {
          this.#absent.delete(first);
          this.#writing.delete(first);
        },
        (error: unknown) => {
          // Left in #writing: an instance does not retry a pack it could not write.
          this.#warn(
            `${this.#host.store.describe(this.#packPath(first))}: packed read cache not written (${message(error)})`,
          );
        },
      )
      .finally(() => this.#pending.delete(write));
    this.#pending.add(write);
  }

  #warn(text: string): void {
    this.#host.warn?.(text);
  }

  #packPath(first: number): string {
    return `${this.#host.dir}/.slots/packs/${padIndex(first)}.pack`;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
