import type { KeyObject } from 'node:crypto';
import { type AnyEvent, isRoundTripSafe, parseEventJson, serializeEvent } from '@x/events';
import { verifyEventChain } from './chain/verify-chain.js';
import type { ChainReport } from './chain/verify-report.js';
import { DuplicateEventIdError } from './errors/duplicate-event-id-error.js';
import { EventIndexOutOfRangeError } from './errors/event-index-out-of-range-error.js';
import { InvalidEventIdError } from './errors/invalid-event-id-error.js';
import { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
import { UnknownEventIdError } from './errors/unknown-event-id-error.js';
import type { EventLogLike, LogGap, SetAsidePastGap } from './event-log/event-log-like.js';
import {
  type AppendOptions,
  type EventLogOptions,
  READ_CONCURRENCY,
  type RefreshOptions,
} from './event-log/event-log-options.js';
import { eventIdOfPath, isStorableEventId } from './event-log/file-names.js';
import { appendManyNow, appendNow, type PreparedEvent, recordHead } from './event-log/log-appends.js';
import { LogCore } from './event-log/log-core.js';
import { probeClaims, relist } from './event-log/log-discovery.js';
import { loadEvent, repeatedIdProblem } from './event-log/log-reads.js';
import { NAME_INDEX_MIN_COUNT } from './event-log/name-index.js';
import { PackedReads, type PackHost } from './event-log/packs.js';
import { readMany } from './event-log/read-many.js';
import { appendToSegment, openSegmentLayout, segmentAppeared } from './event-log/segment/segment-layout.js';
import { setAsidePastGap } from './event-log/set-aside-past-gap.js';
import { type SettledEntry, settle } from './event-log/settled-entry.js';
import {
  type LogEntry,
  listenToLog,
  type SubscribeOptions,
  type SubscriptionSource,
  subscribeToLog,
} from './event-log/subscription.js';
import { writeNameIndexIfNeeded } from './event-log/tracked-writes.js';
import type { FileStore } from './file-store.js';

export type {
  AppendOptions,
  DamagedSegmentPolicy,
  EventLogLayout,
  EventLogLogger,
  EventLogOptions,
  RefreshOptions,
} from './event-log/event-log-options.js';

/**
 * An append-only log of events in a `FileStore`, one file per event (`<dir>/event-{index:05d}-{id}.json`,
 * the reference layout), safe for many writers (instances, processes, machines) without a lock: each
 * index is first claimed in `<dir>/.slots/{index:05d}.json` with the store's create-if-absent, and the
 * claim, which holds the whole event, is the commit point. See the package README, "EventLog".
 */
export class EventLog implements EventLogLike {
  readonly store: FileStore;
  readonly dir: string;
  /** Everything this instance knows of its log; the modules in event-log/ read and extend it. */
  readonly #core: LogCore;

  private constructor(store: FileStore, options: EventLogOptions) {
    this.store = store;
    this.#core = new LogCore(store, options);
    this.dir = this.#core.dir;
    const packs = options.packs ?? true;
    if (packs !== false && PackedReads.available()) {
      this.#core.packs = new PackedReads(this.#packHost(), packs === true ? {} : packs);
    }
  }

  /**
   * Opens (or starts) the log in `store`: one listing of the directory, no event file read, or none at
   * all when the directory is unchanged since its name index was written (see `close`). A slot claim
   * left at the end by a writer that crashed before writing its event file is rolled forward.
   */
  static async open(store: FileStore, options: EventLogOptions = {}): Promise<EventLog> {
    const log = new EventLog(store, options);
    const core = log.#core;
    const layout = await openSegmentLayout(core, options, log);
    if (layout === 'again') return EventLog.open(store, options);
    if (layout === 'segment') return log;
    if (layout === 'files') {
      await relist(core, true);
      // A log with a segment is a segment log, also when its segment writer created it while this one looked.
      if (await segmentAppeared(core)) return EventLog.open(store, options);
    }
    // A long log that had to be listed gets its name index, so the next open need not list (not awaited).
    if (core.verified !== undefined && core.verified.count >= NAME_INDEX_MIN_COUNT) {
      void core.enqueue(() => writeNameIndexIfNeeded(core));
    }
    return log;
  }

  /**
   * Writes the log's name index (`<dir>/.slots/name-index`) when it is long (1024 events or more), this
   * instance knows its directory's exact contents and the index on disk is not already current, so the
   * next `open` needs no listing. Waits for appends in progress. Never throws: a failure is warned
   * about. Idempotent, and the log stays usable (a later `close` writes the index again if needed).
   * Also waits for the event-file writes still running after their appends (see `claimThenPublish`) and for the
   * packed read cache's writes in progress: once `close` resolves, this instance writes nothing more on its
   * own, so the caller may remove or copy the directory.
   */
  async close(): Promise<void> {
    const core = this.#core;
    await core.enqueue(() => writeNameIndexIfNeeded(core));
    await this.packsSettled();
    await core.enqueue(() => recordHead(core));
    await core.segment?.close();
  }

  /** Number of events: the contiguous run of indices from 0 this instance knows about. */
  get length(): number {
    return this.#core.length;
  }

  /**
   * The gap the last listing found (see `LogGapError`): the missing index (the log's length) and how many event
   * files lie past it, or undefined. While there is one, appends fail with `LogGapError`.
   */
  get gap(): LogGap | undefined {
    const core = this.#core;
    return core.filesPastGap === 0 ? undefined : { missingIndex: core.length, filesPastGap: core.filesPastGap };
  }

  /**
   * Repairs a gap by ending the log at it, on request only: lists the directory again and, when an index is still
   * missing with event files past it, moves those files with their slot claims (nothing is deleted before it is
   * copied) to `<dir>-past-gap-<missing index>` beside the log's directory, warns through `logger`, and resolves
   * with what was moved; then appends go on from the missing index. Undefined (nothing moved) without a gap.
   * Restoring the missing event file instead keeps every event (see "Reading" in the README).
   */
  setAsidePastGap(): Promise<SetAsidePastGap | undefined> {
    const core = this.#core;
    return core.enqueue(() => setAsidePastGap(core));
  }

  /** Index of the event with `id`, or -1 when this instance does not know it. No I/O. */
  indexOf(id: string): number {
    return this.#core.findId(id) ?? -1;
  }

  /** Id of the event at `index` (negative counts from the end), from the index alone: no I/O. */
  idAt(index: number): string {
    const resolved = this.#core.resolve(index);
    if (resolved === undefined) throw new EventIndexOutOfRangeError(index, this.length);
    return eventIdOfPath(this.#core.paths.at(resolved)!);
  }

  /**
   * Appends `event` and resolves with its index once it is committed (its slot claim, or its segment record,
   * durable as the store's durability says) and, unless deferred, its event file is written: a failure to
   * write that file after the commit is warned about through `logger`, not thrown, as the event is in the log
   * and the file is rebuilt from the claim or segment by the next open or read. The event must survive
   * `parseEventJson(serializeEvent(event))` (the `EventParseError` from @x/events otherwise), its id
   * must be new (`DuplicateEventIdError`) and storable in a file name (`InvalidEventIdError`).
   */
  async append(event: AnyEvent, options: AppendOptions = {}): Promise<number> {
    const prepared = prepare(event);
    const { expectedIndex } = options;
    if (expectedIndex !== undefined && !(Number.isSafeInteger(expectedIndex) && expectedIndex >= 0)) {
      throw new InvalidStoreOptionsError('expectedIndex', `expected a non-negative integer, got ${expectedIndex}`);
    }
    const core = this.#core;
    if (core.segment) return core.enqueue(async () => (await appendToSegment(core, [prepared], expectedIndex))[0]!);
    return core.enqueue(() => appendNow(core, prepared, expectedIndex));
  }

  /**
   * Appends `events` in order and resolves with their indices: the same as calling `append` for each, except
   * that where the store can write many claims and event files at once (the local store), they share one
   * walk and one round of fsyncs, so a batch costs about what one append does. Contiguous unless another
   * writer appends in between (then the rest follow its events, as separate appends would). Every event is
   * validated first: an invalid one, or an id already in the log or twice in the batch, rejects the whole
   * call before anything is written.
   */
  async appendMany(events: readonly AnyEvent[]): Promise<number[]> {
    const prepared = events.map(prepare);
    const seen = new Map<string, number>();
    prepared.forEach(({ event }, position) => {
      const earlier = seen.get(event.id);
      if (earlier !== undefined) throw new DuplicateEventIdError(event.id, earlier);
      seen.set(event.id, position);
    });
    const core = this.#core;
    if (core.segment) return core.enqueue(() => appendToSegment(core, prepared, undefined));
    return core.enqueue(() => appendManyNow(core, prepared));
  }

  /** The event at `index` (negative counts from the end). Picks up other writers' appends once before failing. */
  async get(index: number): Promise<AnyEvent> {
    let resolved = this.#core.resolve(index);
    if (resolved === undefined) {
      await this.refresh();
      resolved = this.#core.resolve(index);
      if (resolved === undefined) throw new EventIndexOutOfRangeError(index, this.length);
    }
    return loadEvent(this.#core, resolved);
  }

  /** The event with `id`; `UnknownEventIdError` when the log (after one refresh) does not hold it. */
  async getById(id: string): Promise<AnyEvent> {
    let index = this.#core.findId(id);
    if (index === undefined) {
      await this.refresh();
      index = this.#core.findId(id);
      if (index === undefined) throw new UnknownEventIdError(id);
    }
    return loadEvent(this.#core, index);
  }

  /** Events in [start, end), with `Array.prototype.slice` semantics (negative and clamped bounds). */
  async range(start: number, end: number = this.length): Promise<AnyEvent[]> {
    const from = clampSliceBound(start, this.length);
    const to = clampSliceBound(end, this.length);
    return this.#readRange(from, Math.max(from, to));
  }

  /**
   * Like `range`, but one unreadable event does not fail the rest: each entry holds the event or the
   * `StoreError` its file gave (corrupt, not a regular file, a link, missing). Other errors reject.
   */
  async rangeSettled(start: number, end: number = this.length): Promise<SettledEntry[]> {
    const from = clampSliceBound(start, this.length);
    const to = Math.max(from, clampSliceBound(end, this.length));
    const core = this.#core;
    return readMany({
      start: from,
      end: to,
      concurrency: READ_CONCURRENCY,
      read: (index) => settle(index, loadEvent(core, index), () => core.store.describe(core.paths.at(index)!)),
    });
  }

  /** Reads [start, end), already within bounds: complete chunks from their packs, the rest in parallel. */
  #readRange(start: number, end: number): Promise<AnyEvent[]> {
    const core = this.#core;
    if (core.packs) return core.packs.readRange(start, end);
    return readMany({ start, end, concurrency: READ_CONCURRENCY, read: (index) => loadEvent(core, index) });
  }

  /** Resolves once the packed read cache's writes started so far have finished (they never fail a call). */
  packsSettled(): Promise<void> {
    return this.#core.packs?.settled() ?? Promise.resolve();
  }

  /** What the packed read cache uses of this log. */
  #packHost(): PackHost {
    const core = this.#core;
    return {
      store: core.store,
      dir: core.dir,
      warn: core.logger && ((message) => core.logger?.warn(message)),
      get length() {
        return core.length;
      },
      nameAt: (index) => core.paths.nameAt(index)!,
      peek: (index) => core.cache.peek(index),
      remember: (index, event) => core.cache.set(index, event),
      repeatsEarlierId: (index, id) => repeatedIdProblem(core, index, id) !== undefined,
      loadFiles: (indices) =>
        readMany({
          start: 0,
          end: indices.length,
          concurrency: READ_CONCURRENCY,
          read: (k) => loadEvent(core, indices[k]!),
        }),
    };
  }

  /** Iterates events from `from` to the end, reading ahead in parallel batches. Includes appends made meanwhile. */
  async *iterate(from = 0): AsyncGenerator<AnyEvent, void, undefined> {
    let next = clampSliceBound(from, this.length);
    while (next < this.length) {
      const end = Math.min(this.length, next + READ_CONCURRENCY * 2);
      for (const event of await this.#readRange(next, end)) yield event;
      next = end;
    }
  }

  [Symbol.asyncIterator](): AsyncGenerator<AnyEvent, void, undefined> {
    return this.iterate(0);
  }

  /**
   * Picks up events appended by other instances, processes or machines and resolves with how many
   * were new. By default it probes the slot claims at `length`, `length + 1`, … (one read per event
   * plus one that misses), which costs nothing that grows with the log; `relist` lists the directory.
   */
  refresh(options: RefreshOptions = {}): Promise<number> {
    const core = this.#core;
    const segment = core.segment;
    if (segment) return core.enqueue(() => segment.catchUp());
    if (options.relist) return core.enqueue(() => relist(core, false));
    // A refresh that has not started yet will see everything this one would: share it.
    if (core.queuedRefresh) return core.queuedRefresh;
    const queued = core.enqueue(() => {
      core.queuedRefresh = undefined;
      return probeClaims(core, false);
    });
    core.queuedRefresh = queued;
    return queued;
  }

  /** Checks this log's hash chain: `verifyEventChain` on its directory (see `EventLogLike.verifyChain`). */
  verifyChain(options: { publicKey?: KeyObject } = {}): Promise<ChainReport> {
    // What this instance knows is evidence too: a log cut short under it is caught before any head record.
    const last = this.#core.lastLink;
    const knownHead = { length: this.length, hash: last?.index === this.length - 1 ? last.hash : undefined };
    return verifyEventChain(this.store, { dir: this.dir, publicKey: options.publicKey, knownHead });
  }

  /**
   * Every event from `fromIndex` on (negative counts from the end): the stored ones, then live
   * appends, from this instance at once and from other writers by polling `refresh()`. No gap and no
   * duplicate, whatever appends race with it. Ends when `options.signal` aborts.
   */
  subscribe(fromIndex = 0, options: SubscribeOptions = {}): AsyncIterable<LogEntry> {
    const log = this;
    const source: SubscriptionSource = {
      get length() {
        return log.length;
      },
      readRange: (start, end) => this.#readRange(start, end),
      waitForGrowth: (known, waitOptions) => this.#waitForGrowth(known, waitOptions),
    };
    return subscribeToLog(source, fromIndex, {
      signal: options.signal,
      pollIntervalMs: options.pollIntervalMs ?? this.#core.pollIntervalMs,
    });
  }

  /** Callback form of `subscribe`. Returns a function that stops it; errors end it and go to `onError`. */
  listen(
    fromIndex: number,
    listener: (entry: LogEntry) => void | Promise<void>,
    options: SubscribeOptions & { onError?: (error: unknown) => void } = {},
  ): () => void {
    return listenToLog((signal) => this.subscribe(fromIndex, { ...options, signal }), listener, options);
  }

  /** Waits for `length > known` (an append here wakes it at once), polling `refresh()` meanwhile. */
  async #waitForGrowth(known: number, options: { signal?: AbortSignal; pollIntervalMs: number }): Promise<void> {
    const { signal, pollIntervalMs } = options;
    if (this.length > known || signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#core.waiters.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, pollIntervalMs);
      this.#core.waiters.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
    if (this.length <= known && !signal?.aborted) await this.refresh();
  }
}

/** Validates an event for appending and serializes it once (see `append`). */
function prepare(event: AnyEvent): PreparedEvent {
  const json = serializeEvent(event);
  // An event this process validated from a lossless value (createEvent, parseEvent*) parses back
  // equal: parsing its text again would only repeat that work (see isRoundTripSafe in @x/events).
  const parsed = isRoundTripSafe(event) ? event : parseEventJson(json);
  if (!isStorableEventId(parsed.id)) throw new InvalidEventIdError(parsed.id);
  return { event: parsed, json };
}

function clampSliceBound(bound: number, length: number): number {
  const integer = Math.trunc(bound);
  if (integer < 0) return Math.max(0, length + integer);
  return Math.min(integer, length);
}
