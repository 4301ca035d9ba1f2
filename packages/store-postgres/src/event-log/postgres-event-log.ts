import type { KeyObject } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import {
  AppendConflictError,
  type AppendFence,
  type ChainReport,
  DuplicateEventIdError,
  EventIndexOutOfRangeError,
  type EventLogAppendOptions,
  type EventLogLike,
  LeaseLostError,
  type LogEntry,
  LogGapError,
  type SignedHead,
  type SubscribeOptions,
  UnknownEventIdError,
} from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { InvalidPostgresOptionsError } from '../errors/invalid-postgres-options-error.js';
import { isConnectionFailure, sqlState, violatedConstraint } from '../internal/pg-errors.js';
import { checkedKey } from '../internal/postgres-text.js';
import { retryOnConnectionFailure } from '../internal/retry.js';
import {
  conflictingRow,
  type EventRow,
  type EventTables,
  insertEventsAt,
  insertEventsLocked,
  toEventRow,
} from './insert-events.js';
import { LogIndex } from './log-index.js';
import { signPostgresChainHead, verifyPostgresChain } from './postgres-chain.js';
import { catchUpRows, describeLog, PAGE, type RowSource, readEventRange } from './read-rows.js';
import { clampSliceBound, listenToEntries, subscribeToEntries } from './subscribe.js';
import { waitForGrowth } from './wait-for-growth.js';

/** A lease generation every append must still hold (see `PostgresLeases`). */
export type LeaseFence = AppendFence;

function leaseLost(fence: LeaseFence): LeaseLostError {
  return new LeaseLostError({ leaseKey: fence.key, generation: fence.generation });
}

/** Options for `PostgresEventLog.open`. */
export interface PostgresEventLogOptions {
  /** The log's key in the events table; for a conversation, its id. */
  logId: string;
  /**
   * Refuse every append (with `LeaseLostError`) once this lease generation is no longer current:
   * the check and the insert are one statement holding a share lock on the lease row.
   */
  fence?: LeaseFence;
  /** How often subscriptions re-read the table when no notification arrives, in ms. Default 1000. */
  pollIntervalMs?: number;
  /** How long an append or read keeps retrying while the database is unreachable, in ms. Default 30 000. */
  retryForMs?: number;
  /** Parsed events kept in memory (least recently used dropped). Default 1024. */
  cacheSize?: number;
}

function checkedExpectedIndex(expectedIndex: number | undefined): number | undefined {
  if (expectedIndex !== undefined && !(Number.isSafeInteger(expectedIndex) && expectedIndex >= 0)) {
    throw new InvalidPostgresOptionsError('expectedIndex', `expected a non-negative integer, got ${expectedIndex}`);
  }
  return expectedIndex;
}

/**
 * An append-only event log in PostgreSQL: one row per event, keyed by (log, index). An append
 * inserts at the index it believes is next; the primary key makes that a compare-and-swap, so any
 * number of instances, processes and replicas append without a lock and never share an index.
 * The event JSON is stored as text, byte for byte what the reference would write to its event file.
 */
export class PostgresEventLog implements EventLogLike {
  readonly database: PostgresDatabase;
  readonly logId: string;
  readonly fence: LeaseFence | undefined;
  /** Every append given a `fence` checks it in the insert itself (`EventLogLike.fencesAppends`). */
  readonly fencesAppends = true;
  readonly #table: string;
  readonly #tables: EventTables;
  readonly #pollIntervalMs: number;
  readonly #retryForMs: number;
  readonly #cacheSize: number;
  /** The ids in index order and the cached events. */
  readonly #index: LogIndex;
  readonly #rows: RowSource;
  #tail: Promise<unknown> = Promise.resolve();
  /** How many more appends take the log's lock instead of trying an index (set after a conflict). */
  #lockedAppends = 0;
  /** The subscriptions' refresh that is queued and not started yet (see `#sharedRefresh`). */
  #queuedRefresh: Promise<number> | undefined;

  private constructor(database: PostgresDatabase, options: PostgresEventLogOptions) {
    this.database = database;
    this.logId = checkedKey('logId', options.logId);
    this.fence = options.fence;
    this.#table = `${database.tablePrefix}events`;
    this.#tables = { events: this.#table, leases: `${database.tablePrefix}leases`, logId: this.logId };
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.#retryForMs = options.retryForMs ?? 30_000;
    this.#cacheSize = options.cacheSize ?? 1024;
    this.#index = new LogIndex(this.#cacheSize);
    this.#rows = {
      database,
      table: this.#table,
      logId: this.logId,
      retryForMs: this.#retryForMs,
      index: this.#index,
    };
  }

  /** Opens (or starts) the log `options.logId`: one query for the ids of its events. */
  static async open(database: PostgresDatabase, options: PostgresEventLogOptions): Promise<PostgresEventLog> {
    const log = new PostgresEventLog(database, options);
    await log.#catchUp(false);
    return log;
  }

  /** The same log, with every append fenced by `fence`. Shares nothing mutable with this instance. */
  withFence(fence: LeaseFence): Promise<PostgresEventLog> {
    return PostgresEventLog.open(this.database, {
      logId: this.logId,
      fence,
      pollIntervalMs: this.#pollIntervalMs,
      retryForMs: this.#retryForMs,
      cacheSize: this.#cacheSize,
    });
  }

  get length(): number {
    return this.#index.length;
  }

  indexOf(id: string): number {
    return this.#index.find(id) ?? -1;
  }

  idAt(index: number): string {
    const resolved = this.#index.resolve(index);
    if (resolved === undefined) throw new EventIndexOutOfRangeError(index, this.length);
    return this.#index.idAt(resolved);
  }

  /**
   * Appends `event` and resolves with its index once committed. A connection failure mid-append is
   * retried: the event id is unique in the log, so a retry of a commit that did land is recognised
   * and answered with the index it got, never written twice.
   */
  async append(event: AnyEvent, options: EventLogAppendOptions = {}): Promise<number> {
    const row = toEventRow(event);
    const expectedIndex = checkedExpectedIndex(options.expectedIndex);
    // The append's own fence (a run's lease) wins over the log's.
    const fence = options.fence ?? this.fence;
    return this.#enqueue(async () => (await this.#write([row], expectedIndex, fence))[0]!);
  }

  /**
   * `append` for each event in order (see `EventLogAppendOptions`), in one INSERT: one round trip, one commit,
   * and all of the batch is written or none of it, at consecutive indices. `expectedIndex` is the first event's;
   * `fence` (else the log's) is checked in the same statement, so a stale owner's batch is refused whole. Every
   * event is validated and checked for duplicate ids (in the log and in the batch) before any is written.
   */
  async appendMany(events: readonly AnyEvent[], options: EventLogAppendOptions = {}): Promise<number[]> {
    const expectedIndex = checkedExpectedIndex(options.expectedIndex);
    const fence = options.fence ?? this.fence;
    const rows = events.map(toEventRow);
    const seen = new Map<string, number>();
    rows.forEach(({ id }, position) => {
      const earlier = seen.get(id);
      if (earlier !== undefined) throw new DuplicateEventIdError(id, earlier);
      seen.set(id, position);
    });
    if (rows.length === 0) return [];
    return this.#enqueue(() => this.#write(rows, expectedIndex, fence));
  }

  async get(index: number): Promise<AnyEvent> {
    let resolved = this.#index.resolve(index);
    if (resolved === undefined) {
      await this.refresh();
      resolved = this.#index.resolve(index);
      if (resolved === undefined) throw new EventIndexOutOfRangeError(index, this.length);
    }
    return (await this.#readRange(resolved, resolved + 1))[0]!;
  }

  async getById(id: string): Promise<AnyEvent> {
    let index = this.#index.find(id);
    if (index === undefined) {
      await this.refresh();
      index = this.#index.find(id);
      if (index === undefined) throw new UnknownEventIdError(id);
    }
    return this.get(index);
  }

  async range(start: number, end: number = this.length): Promise<AnyEvent[]> {
    const from = clampSliceBound(start, this.length);
    const to = clampSliceBound(end, this.length);
    return this.#readRange(from, Math.max(from, to));
  }

  async *iterate(from = 0): AsyncGenerator<AnyEvent, void, undefined> {
    let next = clampSliceBound(from, this.length);
    while (next < this.length) {
      const end = Math.min(this.length, next + PAGE);
      for (const event of await this.#readRange(next, end)) yield event;
      next = end;
    }
  }

  [Symbol.asyncIterator](): AsyncGenerator<AnyEvent, void, undefined> {
    return this.iterate(0);
  }

  /** Reads the events other writers appended after `length`; resolves with how many were new. */
  refresh(): Promise<number> {
    return this.#enqueue(() => this.#catchUp(true));
  }

  /**
   * `refresh`, joined with one that is queued and not yet started: that one reads everything committed before this
   * call too. A notification wakes every subscription of the log at once; one read serves them all instead of
   * one read each, queued one after the other (100 subscribers: 100 reads before the last sees the event).
   */
  #sharedRefresh(): Promise<number> {
    if (this.#queuedRefresh !== undefined) return this.#queuedRefresh;
    const refresh = this.#enqueue(() => {
      this.#queuedRefresh = undefined;
      return this.#catchUp(true);
    });
    this.#queuedRefresh = refresh;
    return refresh;
  }

  subscribe(fromIndex = 0, options: SubscribeOptions = {}): AsyncIterable<LogEntry> {
    return subscribeToEntries(
      {
        length: () => this.length,
        readRange: (start, end) => this.#readRange(start, end),
        waitForGrowth: (known, signal, pollIntervalMs) =>
          waitForGrowth(
            {
              length: () => this.length,
              watch: (wake) => this.database.notifier.watch(this.logId, wake),
              waiters: this.#index.waiters,
              refresh: () => this.#sharedRefresh(),
            },
            { known, signal, pollIntervalMs },
          ),
      },
      fromIndex,
      { signal: options.signal, pollIntervalMs: options.pollIntervalMs ?? this.#pollIntervalMs },
    );
  }

  listen(
    fromIndex: number,
    listener: (entry: LogEntry) => void | Promise<void>,
    options: SubscribeOptions & { onError?: (error: unknown) => void } = {},
  ): () => void {
    return listenToEntries((signal) => this.subscribe(fromIndex, { ...options, signal }), listener, options);
  }

  /**
   * Checks the log's hash chain (every row links to the one before it; the database sets the links in
   * the insert) against the exact text of every row and, with `publicKey`, the signed head.
   */
  verifyChain(options: { publicKey?: KeyObject } = {}): Promise<ChainReport> {
    return verifyPostgresChain(this.database, this.logId, {
      publicKey: options.publicKey,
      retryForMs: this.#retryForMs,
    });
  }

  /** Verifies the chain and signs its head with the user's Ed25519 key (see `verifyChain`). */
  signChainHead(privateKey: KeyObject): Promise<SignedHead | undefined> {
    return signPostgresChainHead(this.database, this.logId, { privateKey, retryForMs: this.#retryForMs });
  }

  /**
   * Writes `rows` in one statement at the next indices and resolves with them. After a rival took one of
   * those indices: catch up, check the ids again, and from then on queue on the log's lock for a while.
   * After a connection failure the statement may have committed: a commit that landed is recognised by
   * the ids (all of them, in order, at consecutive indices: the statement is atomic, so never some).
   */
  async #write(
    rows: readonly EventRow[],
    expectedIndex: number | undefined,
    fence: LeaseFence | undefined,
  ): Promise<number[]> {
    const conflict = (): AppendConflictError =>
      new AppendConflictError({ eventId: rows[0]!.id, expectedIndex: expectedIndex!, actualIndex: this.length });
    await this.#rejectPastGap();
    for (const { id } of rows) this.#index.rejectDuplicate(id);
    if (expectedIndex !== undefined && expectedIndex !== this.length) {
      if (expectedIndex > this.length) await this.#catchUp(true);
      for (const { id } of rows) this.#index.rejectDuplicate(id);
      if (expectedIndex !== this.length) throw conflict();
    }
    let uncertain = false;
    let contended = this.#lockedAppends > 0;
    for (;;) {
      const start = this.length;
      // Other writers are appending too: take the log's lock and the next indices, no more retries.
      const locked = contended && expectedIndex === undefined;
      let first: number | undefined;
      try {
        first = locked
          ? await insertEventsLocked(this.database, this.#tables, { rows, fence })
          : (await insertEventsAt(this.database, this.#tables, { start, rows, fence }))
            ? start
            : undefined;
      } catch (error) {
        contended = true;
        // Appends that met a rival are likely to meet one again soon: queue on the lock for a while.
        this.#lockedAppends = 32;
        if (isConnectionFailure(error)) {
          uncertain = true;
          await retryOnConnectionFailure(() => this.#catchUp(true), this.#retryForMs);
        } else if (sqlState(error) === '23505') {
          await this.#catchUp(true);
        } else {
          throw error;
        }
        const landed = this.#landed(rows, uncertain);
        if (landed !== undefined) return landed;
        if (violatedConstraint(error)?.endsWith('event_id_key') === true) {
          throw new DuplicateEventIdError(conflictingRow(error, rows).id, -1);
        }
        if (expectedIndex !== undefined && this.length !== expectedIndex) throw conflict();
        continue;
      }
      if (first === undefined) throw leaseLost(fence!);
      if (locked) {
        this.#lockedAppends = Math.max(0, this.#lockedAppends - 1);
        // Rivals may have appended before the lock was ours: read their ids (and ours) up to the end.
        await this.#catchUp(false);
        for (const [offset, { event }] of rows.entries()) this.#index.remember(first + offset, event);
      } else {
        for (const { id, event } of rows) this.#index.push(id, event);
      }
      return rows.map((_, offset) => first + offset);
    }
  }

  /**
   * After a failed insert and a catch-up: undefined when no event of `rows` is in the log (write them again);
   * their indices when the failure may have hidden a commit (`uncertain`) and all of them are there in order
   * at consecutive indices; otherwise `DuplicateEventIdError` for the first that another writer appended.
   */
  #landed(rows: readonly EventRow[], uncertain: boolean): number[] | undefined {
    const indices = rows.map(({ id }) => this.indexOf(id));
    const present = indices.findIndex((index) => index >= 0);
    if (present < 0) return undefined;
    const first = indices[0]!;
    if (uncertain && first >= 0 && indices.every((index, offset) => index === first + offset)) return indices;
    throw new DuplicateEventIdError(rows[present]!.id, indices[present]!);
  }

  /**
   * `LogGapError` when the last catch-up found rows past a missing index, and a catch-up now still does (the gap may
   * have been filled since): an append would take the missing index, ahead of the rows past it. Nothing is written.
   */
  async #rejectPastGap(): Promise<void> {
    if (this.#index.rowsPastGap === 0) return;
    await this.#catchUp(true);
    if (this.#index.rowsPastGap === 0) return;
    throw new LogGapError({
      location: describeLog(this.#rows),
      missingIndex: this.length,
      filesPastGap: this.#index.rowsPastGap,
      entries: 'rows',
    });
  }

  #catchUp(withBodies: boolean): Promise<number> {
    return catchUpRows(this.#rows, withBodies);
  }

  #readRange(start: number, end: number): Promise<AnyEvent[]> {
    return readEventRange(this.#rows, start, end);
  }

  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(work);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}
