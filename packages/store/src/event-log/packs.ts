import type { AnyEvent } from '@x/events';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import type { FileStore } from '../file-store.js';
import { handOver } from '../internal/to-bytes.js';
import { padIndex } from './file-names.js';
import { isFileNotFound } from './is-file-not-found.js';
import { decodePack, encodedPackElement, encodePack, packsAvailable } from './pack-format.js';

/** Events per pack: each pack holds (a prefix of) the aligned chunk [start, start + CHUNK). */
export const PACK_CHUNK = 1024;

/** Pack reads in flight ahead of readers (two readers going through the log side by side keep theirs). */
const AHEAD = 2;

/**
 * For a chunk size: how many wanted, uncached events make reading a pack worth it (32 for 1024), and how
 * many events the log's last, incomplete chunk must have grown by before a reader rewrites its pack (64).
 */
export function packThresholds(chunkSize: number): { minRead: number; tailStep: number } {
  const minRead = Math.max(1, Math.min(32, Math.floor(chunkSize / 8)));
  return { minRead, tailStep: 2 * minRead };
}

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
  /**
   * Whether an earlier index holds `id` already (a file repeating an earlier file's id, which only a foreign writer
   * or a hand edit leaves): such an event is never served from a pack, whose writer may have packed it before that
   * was checked, but read as its file is (`CorruptEventError` naming both files).
   */
  repeatsEarlierId(index: number, id: string): boolean;
  /** Reads events from their files, as without packs; results in the order of `indices`. */
  loadFiles(indices: readonly number[]): Promise<AnyEvent[]>;
}

/**
 * The packed read cache of one `EventLog` (see the package README, "Packed read cache"): packs in
 * `<dir>/.slots/packs/{start:05d}.pack`, each the events of one aligned chunk of `chunkSize` indices (or,
 * for the log's last, incomplete chunk, of its first events), read with one `store` read and one
 * `JSON.parse`. A pack is used only when its header's file names equal the log's names for its indices
 * and its checksum matches; a missing, unreadable or disagreeing pack means reading the event files, and
 * the pack is (re)written once the chunk has been read.
 */
export class PackedReads {
  readonly #host: PackHost;
  readonly #chunk: number;
  readonly #minRead: number;
  readonly #tailStep: number;
  /**
   * Per chunk, how many events its pack holds as this instance last read or wrote it (0: missing or
   * unusable, so read files until this instance rewrites it, and warn only once). No entry: not known yet.
   */
  readonly #packed = new Map<number, number>();
  /** Chunks whose pack this instance is writing, or could not write (not retried). */
  readonly #writing = new Set<number>();
  readonly #pending = new Set<Promise<void>>();
  /** The chunk a sequential reader stopped inside of, so its next batch needs no second pack read. */
  #recent: { start: number; events: AnyEvent[] } | undefined;
  /**
   * Pack reads started ahead of a sequential reader (see `#readAhead`), by chunk: at most `AHEAD` at a time,
   * each used once or dropped.
   */
  readonly #ahead = new Map<number, Promise<Uint8Array | string | undefined>>();

  readonly #canWrite: boolean;
  /**
   * The encoded bytes of the events this instance appended in the chunk holding the log's end (`#encodedFirst`),
   * by offset in the chunk, where they are the event's pack element (`encodedPackElement`): the pack of the chunk
   * takes them instead of serializing 1,024 events again. Views of bytes the store already holds (the memory
   * store keeps them as they are); dropped once the chunk's pack is started or the log's end leaves the chunk.
   */
  #encoded: (Uint8Array | undefined)[] = [];
  #encodedFirst = -1;

  constructor(host: PackHost, options: { chunkSize?: number; write?: boolean } = {}) {
    const { chunkSize = PACK_CHUNK, write = true } = options;
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
      throw new InvalidStoreOptionsError('packs.chunkSize', `expected a positive integer, got ${chunkSize}`);
    }
    this.#host = host;
    this.#chunk = chunkSize;
    this.#canWrite = write;
    ({ minRead: this.#minRead, tailStep: this.#tailStep } = packThresholds(chunkSize));
  }

  /** Packs need `zlib.crc32` (Node ≥ 20.15); without it the log reads files only. */
  static available(): boolean {
    return packsAvailable();
  }

  /** Events in [start, end) (within the log's length): what packs hold from them, the rest from files. */
  async readRange(start: number, end: number): Promise<AnyEvent[]> {
    const host = this.#host;
    const chunk = this.#chunk;
    const results = new Array<AnyEvent>(end - start);
    const fromFiles: number[] = [];
    let packsRead = 0;
    for (let first = start - (start % chunk); first < end; first += chunk) {
      const from = Math.max(start, first);
      const to = Math.min(end, first + chunk);
      // Let other work in between packs (a local store without fsync reads synchronously).
      if (packsRead > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const events = await this.#packedEvents(first, from, to);
      const packedTo = Math.min(to, first + (events?.length ?? 0));
      for (let index = from; index < packedTo; index++) {
        let event = host.peek(index);
        if (event === undefined) {
          event = events![index - first]!;
          if (host.repeatsEarlierId(index, event.id)) {
            fromFiles.push(index);
            continue;
          }
        }
        host.remember(index, event);
        results[index - start] = event;
      }
      for (let index = Math.max(from, packedTo); index < to; index++) fromFiles.push(index);
      if (events === undefined) continue;
      packsRead++;
      // A reader that stopped inside the pack will likely read on: keep it until it moves elsewhere.
      this.#recent = to < first + events.length ? { start: first, events } : undefined;
    }
    if (fromFiles.length > 0) {
      const read = await host.loadFiles(fromFiles);
      fromFiles.forEach((index, position) => {
        results[index - start] = read[position]!;
      });
    }
    const known = (index: number) => (index >= start && index < end ? results[index - start] : undefined);
    for (let first = start - (start % chunk); first < end; first += chunk) this.#packIfWorthIt(first, known);
    return results;
  }

  /**
   * Called once the append at `index` resolved, with the event and its bytes as the append encoded them (the
   * UTF-8 of `serializeEvent(event)`), when known: a chunk it completed is packed from the cache, if all there.
   */
  appended(index: number, encoded?: { readonly event: AnyEvent; readonly bytes: Uint8Array }): void {
    const first = index - (index % this.#chunk);
    if (first !== this.#encodedFirst) {
      this.#encoded = [];
      this.#encodedFirst = first;
    }
    if (encoded !== undefined && this.#canWrite && encodedPackElement(encoded.event)) {
      this.#encoded[index - first] = encoded.bytes;
    }
    if ((index + 1) % this.#chunk !== 0) return;
    this.#write(first, this.#chunk, () => undefined);
  }

  /**
   * Resolves once every pack write and read ahead started so far has finished (failures are warned about, never
   * thrown).
   */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    // A read ahead is held until its reader comes for it; a closing log (or a caller waiting for quiet) drops it.
    this.#ahead.clear();
  }

  /** The pack's events when the chunk should be read from it and it is usable, else undefined. */
  async #packedEvents(first: number, from: number, to: number): Promise<AnyEvent[] | undefined> {
    if (this.#recent?.start === first) return this.#recent.events;
    if (this.#packed.get(first) === 0) return undefined;
    let uncached = 0;
    for (let index = from; index < to; index++) if (this.#host.peek(index) === undefined) uncached++;
    if (uncached < this.#minRead) return undefined;
    const events = await this.#readPack(first, to === first + this.#chunk);
    this.#packed.set(first, events?.length ?? 0);
    return events;
  }

  /**
   * Starts reading the pack of the chunk after `first` when a reader just read `first` to its end and that chunk
   * has events enough to be worth a pack read (so likely packed, and likely read next: a resume reads a long view
   * chunk by chunk). Its bytes then arrive while this chunk is decoded, where reading them on demand would leave
   * the thread waiting on the disk once per pack. The bytes are still checked (checksum, names against the log)
   * when they are used; a read ahead nobody uses costs one pack read. True when a read was started.
   */
  #readAhead(first: number): boolean {
    const next = first + this.#chunk;
    if (next + this.#minRead > this.#host.length || this.#ahead.has(next) || this.#packed.get(next) === 0) return false;
    if (this.#writing.has(next) || this.#recent?.start === next) return false;
    if (this.#ahead.size >= AHEAD) this.#ahead.delete(this.#ahead.keys().next().value!);
    const fetch = this.#fetch(next);
    this.#ahead.set(next, fetch);
    // `settled()` waits for it too, so no read is left running on a closed log. Not dropped on a timer: a timer
    // callback created here kept every pack read ahead alive until it fired (+100 MB over a resume's 100 packs).
    const done: Promise<void> = fetch.then(() => {
      this.#pending.delete(done);
    });
    this.#pending.add(done);
    return true;
  }

  /** The pack's bytes, or undefined (warned about unless missing) when it cannot be read. Never rejects. */
  async #fetch(first: number): Promise<Uint8Array | string | undefined> {
    const { store } = this.#host;
    const path = this.#packPath(first);
    try {
      if (store.readBatch) {
        const [read] = await store.readBatch([path]);
        if (!(read instanceof Uint8Array)) throw read;
        return read;
      }
      return await store.read(path);
    } catch (error) {
      if (!isFileNotFound(error))
        this.#warn(`${store.describe(path)}: packed read cache not readable (${message(error)})`);
      return undefined;
    }
  }

  /**
   * After a read touching chunk `first`: (re)writes its pack when it holds fewer events than the log has
   * there (a complete chunk, or a last chunk grown by `tailStep`), if every event is at hand.
   */
  #packIfWorthIt(first: number, known: (index: number) => AnyEvent | undefined): void {
    const available = Math.min(this.#chunk, this.#host.length - first);
    const packed = this.#packed.get(first);
    if (packed === undefined || packed >= available) return;
    if (available < this.#chunk && available - packed < this.#tailStep) return;
    this.#write(first, available, known);
  }

  async #readPack(first: number, toItsEnd: boolean): Promise<AnyEvent[] | undefined> {
    const { store } = this.#host;
    const path = this.#packPath(first);
    const ahead = this.#ahead.get(first);
    this.#ahead.delete(first);
    const data = await (ahead ?? this.#fetch(first));
    if (data === undefined) return undefined;
    if (toItsEnd && this.#readAhead(first)) {
      // Lets the read ahead get to the store's own I/O (an `await` chain of synchronous steps on the local store)
      // before this thread is held by the decoding.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const decoded = decodePack(data, {
      start: first,
      maxCount: Math.min(this.#chunk, this.#host.length - first),
      nameAt: (index) => this.#host.nameAt(index),
      location: store.describe(path),
    });
    if ('problem' in decoded) {
      this.#warn(
        `${store.describe(path)}: packed read cache ignored, ${decoded.problem}; it is rewritten from the event files`,
      );
      return undefined;
    }
    return decoded.events;
  }

  /**
   * Writes the pack of the first `count` events of chunk `first` when every one of them is at hand (from
   * `known` or the cache), after the current call returns (never on a read's or an append's latency path).
   * Best effort: a failure is warned about and not retried by this instance.
   */
  #write(first: number, count: number, known: (index: number) => AnyEvent | undefined): void {
    if (!this.#canWrite || this.#writing.has(first) || first + count > this.#host.length) return;
    const events = new Array<AnyEvent>(count);
    const names = new Array<string>(count);
    for (let k = 0; k < count; k++) {
      const event = known(first + k) ?? this.#host.peek(first + k);
      if (event === undefined) return;
      events[k] = event;
      names[k] = this.#host.nameAt(first + k);
    }
    this.#writing.add(first);
    let encoded: (Uint8Array | undefined)[] | undefined;
    if (this.#encodedFirst === first && count === this.#chunk) {
      encoded = this.#encoded;
      this.#encoded = [];
      this.#encodedFirst = -1;
    } else if (this.#encodedFirst === first) {
      // The tail's pack, rewritten as the chunk grows: the chunk's bytes are kept for its next pack.
      encoded = this.#encoded.slice(0, count);
    }
    const path = this.#packPath(first);
    const write = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#host.store.write(path, handOver(encodePack({ start: first, names, events, encoded }))))
      .then(
        () => {
          this.#packed.set(first, count);
          this.#writing.delete(first);
        },
        (error: unknown) => {
          this.#warn(`${this.#host.store.describe(path)}: packed read cache not written (${message(error)})`);
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
