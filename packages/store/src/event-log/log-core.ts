import type { AnyEvent } from '@x/events';
import type { ChainLink } from '../chain/chain-link.js';
import { DuplicateEventIdError } from '../errors/duplicate-event-id-error.js';
import { StoreError } from '../errors.js';
import type { FileStore } from '../file-store.js';
import { EventCache } from './event-cache.js';
import type { EventLogLogger, EventLogOptions } from './event-log-options.js';
import { eventFileName, slotFileName } from './file-names.js';
import { logDirectory } from './log-directory.js';
import type { LogSegment } from './log-segment.js';
import type { VerifiedListing } from './name-index.js';
import type { PackedReads } from './packs.js';
import { PathIdTable } from './path-id-table.js';
import { PathList } from './path-list.js';

/**
 * The state one `EventLog` instance keeps about its log, shared by the modules that read, discover and
 * append (event-log/log-*.ts). Internal: `EventLog` is its only owner, so its fields are plain (the class
 * is never exported from the package).
 */
export class LogCore {
  readonly store: FileStore;
  readonly dir: string;
  readonly cache: EventCache<AnyEvent>;
  readonly pollIntervalMs: number;
  readonly logger: EventLogLogger | undefined;
  /** Store path of each event file, by index (made on use for those read from a name index); ids are sliced out of these. */
  readonly paths = new PathList();
  /** id → the first index holding it, built from `paths` on the first lookup and extended on use (see `findId`). */
  readonly ids = new PathIdTable();
  readonly waiters = new Set<() => void>();
  /** Appends and refreshes run one at a time, in call order, so the index state has one writer. */
  #tail: Promise<unknown> = Promise.resolve();
  queuedRefresh: Promise<number> | undefined;
  /** The index of the unreadable claim last warned about, so polling does not repeat the warning. */
  warnedClaim = -1;
  /** The chain link of the event at `length - 1` when known (from its claim), so appends need no extra read. */
  lastLink: ChainLink | undefined;
  /** Event files the last listing found past a missing index (the log's length then), if any: appends are refused. */
  filesPastGap = 0;
  /** This instance appended: `close` records the head it reached (see chain/chain-records.ts). */
  appended = false;
  /** This instance wrote (or found) the chain's anchor; an append that starts the chain writes it first. */
  anchored = false;
  packs: PackedReads | undefined;
  /** The segment, in the segment layout (see segment/): the commit point, and where events are read from. */
  segment: LogSegment | undefined;
  /** False for readers that must not write to the directory (`nameIndex: { write: false }`). */
  readonly writesNameIndex: boolean;
  /** False for readers that must not write: claimed events without a file are served from the claim. */
  readonly rollsForward: boolean;
  /**
   * The event files in `dir` are exactly `paths[0..count)` while the directory's listing version is
   * `listing` (stores with `listingVersion` only); what the name index records (see name-index.ts).
   */
  verified: VerifiedListing | undefined;
  /** What the name index on disk records, when this instance read or wrote it. */
  indexOnDisk: VerifiedListing | undefined;
  /**
   * The rest of event-file writes still running after their appends resolved (see `claimThenPublish`: the
   * PutObject of S3's event objects; the local store writes its event files before an append resolves); `close`
   * waits for them.
   */
  readonly unfinishedPublishes = new Set<Promise<void>>();
  /** What appends hand `claimThenPublish` to defer event files with; undefined with `awaitEventFiles`. */
  readonly deferPublish: ((rest: Promise<void>) => void) | undefined;
  /** Appends store each event's bytes once (`stageBodies`, where the store has `writeIfAbsentThenLinkMany`). */
  readonly stagesBodies: boolean;

  constructor(store: FileStore, options: EventLogOptions) {
    this.store = store;
    this.dir = logDirectory(options.dir);
    this.cache = new EventCache(options.cacheSize ?? 1024);
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.logger = options.logger;
    this.writesNameIndex = options.nameIndex?.write !== false;
    this.rollsForward = options.rollForward !== false;
    this.deferPublish = options.awaitEventFiles === true ? undefined : (rest) => this.#trackPublish(rest);
    this.stagesBodies = options.stageBodies !== false && store.writeIfAbsentThenLinkMany !== undefined;
  }

  #trackPublish(rest: Promise<void>): void {
    const tracked: Promise<void> = rest
      .catch((error: unknown) => this.warnUnfinishedEventFile(error))
      .finally(() => this.unfinishedPublishes.delete(tracked));
    this.unfinishedPublishes.add(tracked);
  }

  /**
   * Warns that an event file was not written after its claim committed the event. Never thrown: the event is
   * durable in its claim (an append that rejected now would be retried and refused as a duplicate), and its file
   * is rebuilt from the claim by the next open or read.
   */
  warnUnfinishedEventFile(error: unknown): void {
    this.logger?.warn(
      `${this.store.describe(this.dir)}: an event file was not finished (${error instanceof Error ? error.message : String(error)}); the event is kept in its slot claim and its file is rebuilt from it`,
    );
  }

  /** Resolves once the deferred event-file writes started so far have finished (failures were warned about). */
  async publishesFinished(): Promise<void> {
    while (this.unfinishedPublishes.size > 0) await Promise.all(this.unfinishedPublishes);
  }

  /** Number of events: the contiguous run of indices from 0 this instance knows about. */
  get length(): number {
    return this.paths.length;
  }

  /** Records the event file at the next index (and its event and link when known); wakes waiting subscribers. */
  push(path: string, event: AnyEvent | undefined, link?: ChainLink): void {
    const index = this.paths.length;
    this.paths.push(path);
    this.lastLink = link;
    if (event !== undefined) this.cache.set(index, event);
    for (const wake of this.waiters) wake();
  }

  /**
   * The first index holding `id` (duplicate ids are possible only in foreign logs; the first wins, as in
   * the reference), or undefined. The table keeps a fingerprint per path (read where the id sits, or from
   * the name index's text), no string per id: O(1) per lookup, 1.2 MB at 100k events (see PathIdTable).
   */
  findId(id: string): number | undefined {
    return this.ids.find(this.paths, id);
  }

  rejectDuplicate(id: string): void {
    const existing = this.findId(id);
    if (existing !== undefined) throw new DuplicateEventIdError(id, existing);
  }

  /** `index` as a position in the log (negative counts from the end), or undefined when out of range. */
  resolve(index: number): number | undefined {
    if (!Number.isInteger(index)) return undefined;
    const resolved = index < 0 ? this.length + index : index;
    return resolved >= 0 && resolved < this.length ? resolved : undefined;
  }

  enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(task);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  eventPath(index: number, id: string): string {
    return `${this.dir}/${eventFileName(index, id)}`;
  }

  slotPath(index: number): string {
    return `${this.dir}/.slots/${slotFileName(index)}`;
  }

  /** The directory's listing version, or undefined when the store has none (or it fails: then nothing is trusted). */
  async listingVersion(options?: { settled: boolean }): Promise<string | undefined> {
    if (this.store.listingVersion === undefined) return undefined;
    try {
      return await this.store.listingVersion(this.dir, options);
    } catch (error) {
      if (!StoreError.isInstance(error)) throw error;
      return undefined;
    }
  }
}
