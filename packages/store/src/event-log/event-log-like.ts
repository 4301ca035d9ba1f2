import type { KeyObject } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import type { ChainReport } from '../chain/verify-report.js';
import type { LogEntry, SubscribeOptions } from './subscription.js';

/** A lease generation an append must still hold: a `Lease`, or any `{ key, generation }`. */
export interface AppendFence {
  readonly key: string;
  readonly generation: number;
}

/** Options of `EventLogLike.append`. */
export interface EventLogAppendOptions {
  /** Append only at this index (`AppendConflictError` otherwise). */
  expectedIndex?: number;
  /** Refuse the append once this lease generation is no longer current (see `fencesAppends`). */
  fence?: AppendFence;
}

/** A missing index with event files past it (see `LogGapError`): the log ends there and refuses appends. */
export interface LogGap {
  /** The missing index: the log's length. */
  readonly missingIndex: number;
  /** How many event files lie past it. */
  readonly filesPastGap: number;
}

/** What `EventLog.setAsidePastGap` moved out of the log's directory. */
export interface SetAsidePastGap {
  /** The index that was missing: the log's length, where its next append now goes. */
  readonly missingIndex: number;
  /** Where the files went (a store path beside the log's directory): `<dir>-past-gap-<missingIndex, 5 digits>`. */
  readonly movedTo: string;
  /** The event files moved, by their store paths before the move, in code-point order. */
  readonly eventFiles: string[];
}

/**
 * What every event log offers, whatever holds the events: `EventLog` (one file per event in a
 * `FileStore`) and database-backed logs such as `PostgresEventLog` from `@x/store-postgres`. The
 * contract suite in `@x/store/testing` (`describeEventLogContract`) holds every implementation to it.
 */
export interface EventLogLike {
  /** Number of events this instance knows about: the contiguous run of indices from 0. */
  readonly length: number;
  /**
   * Optional: the gap this log ends at, if any (`EventLog` over a directory that lost an event file). Logs
   * that cannot have one (a database log) leave it out.
   */
  readonly gap?: LogGap | undefined;
  /**
   * Optional: ends the log at its gap on request, moving what lies past it aside (see `EventLog.setAsidePastGap`);
   * resolves with what was moved, or undefined without a gap.
   */
  setAsidePastGap?(): Promise<SetAsidePastGap | undefined>;
  /** Index of the event with `id`, or -1 when this instance does not know it. No I/O. */
  indexOf(id: string): number;
  /** Id of the event at `index` (negative counts from the end). No I/O. */
  idAt(index: number): string;
  /**
   * Appends `event` and resolves with its index once it is durable. With `fence` (a held lease), a log
   * whose `fencesAppends` is true refuses the append with `LeaseLostError`, atomically with the write,
   * once the lease's generation is no longer current; other logs ignore `fence` (their caller checks the
   * lease before appending).
   */
  append(event: AnyEvent, options?: EventLogAppendOptions): Promise<number>;
  /**
   * Optional: appends `events` in order, as `append` for each, in one round of writes where the backend can
   * (`EventLog` on the local store: shared fsyncs; PostgreSQL: one INSERT); their indices. A log whose
   * `fencesAppends` is true honours `options` as `append` does (`expectedIndex`: the first event's; `fence`:
   * checked in the same atomic write, so nothing of the batch lands once the lease moved on); others ignore them
   * (a log made fenced as a whole, such as `PostgresEventLog.withFence`, applies its own fence).
   */
  appendMany?(events: readonly AnyEvent[], options?: EventLogAppendOptions): Promise<number[]>;
  /** True when `append` checks `options.fence` in the same atomic write as the event (database logs). */
  readonly fencesAppends?: boolean;
  /** The event at `index` (negative counts from the end). */
  get(index: number): Promise<AnyEvent>;
  /** The event with `id`. */
  getById(id: string): Promise<AnyEvent>;
  /** Events in [start, end), with `Array.prototype.slice` semantics. */
  range(start: number, end?: number): Promise<AnyEvent[]>;
  /** Events from `from` to the end, appends made meanwhile included. */
  iterate(from?: number): AsyncGenerator<AnyEvent, void, undefined>;
  [Symbol.asyncIterator](): AsyncGenerator<AnyEvent, void, undefined>;
  /** Picks up other writers' appends; resolves with how many were new. */
  refresh(): Promise<number>;
  /** Every event from `fromIndex` on, stored then live, without gap or duplicate. */
  subscribe(fromIndex?: number, options?: SubscribeOptions): AsyncIterable<LogEntry>;
  /** Callback form of `subscribe`; returns the function that stops it. */
  listen(
    fromIndex: number,
    listener: (entry: LogEntry) => void | Promise<void>,
    options?: SubscribeOptions & { onError?: (error: unknown) => void },
  ): () => void;
  /**
   * Checks the log's tamper-evident hash chain (see `verifyEventChain`) and, with `publicKey`, its signed
   * head; reports the first altered, removed, reordered or inserted event. Reads every event once.
   */
  verifyChain(options?: { publicKey?: KeyObject }): Promise<ChainReport>;
  /**
   * Optional: persists what makes the next open fast (`EventLog` writes its name index) once appends in
   * progress are done. Never throws; idempotent. Call it when the log is no longer needed.
   */
  close?(): Promise<void>;
}
