/** Where `EventLog` reports things worth knowing that are not errors (gaps, stray files). */
export interface EventLogLogger {
  warn(message: string): void;
}

/** Options for `EventLog.open`. */
export interface EventLogOptions {
  /** Directory of the event files inside the store. Default `'events'`. */
  dir?: string;
  /** How many parsed events to keep in memory (least recently used are dropped). Default 1024. */
  cacheSize?: number;
  /** How often subscriptions look for other writers' appends while caught up, in ms. Default 250. */
  pollIntervalMs?: number;
  /** Receives warnings about gaps and names that are not event files. Default: none. */
  logger?: EventLogLogger;
  /**
   * The packed read cache in `<dir>/.slots/packs/` (see the README, "Packed read cache"): `false` reads
   * event files only; `{ write: false }` uses packs but never writes one (readers that must not write to
   * the directory). `chunkSize` (events per pack, default 1024) is for tests. Default: on where Node has
   * `zlib.crc32` (≥ 20.15).
   */
  packs?: boolean | { write?: boolean; chunkSize?: number };
  /**
   * The name index in `<dir>/.slots/name-index` (see the README, "Name index"): `{ write: false }` opens from
   * a current index but never writes one, neither after an open that listed nor at `close` (readers that
   * must not write to the directory). Default: written.
   */
  nameIndex?: { write?: boolean };
  /**
   * Whether an event committed by its slot claim but whose writer crashed before its event file is
   * published by this instance (default true). `false`: it is served from its claim and nothing is
   * written (readers that must not write to the directory).
   */
  rollForward?: boolean;
  /**
   * `true`: an append resolves only once its event file (the reference's copy of the event) is durable too:
   * the local store with `'fsync'` fsyncs it and its directory, S3 waits for its PutObject. Default `false`:
   * an append waits for its slot claim, which holds the whole event and is the commit point; the event file
   * is written right after (locally before `append` resolves, not fsynced; on S3 in the background), and
   * one a crash or power loss leaves missing, empty or cut short is rebuilt from its claim when this package
   * next reads it. Set it when a reader that only knows event files (the Python reference) must find every
   * acknowledged event right after a power loss, before this package has opened the log again.
   */
  awaitEventFiles?: boolean;
  /**
   * Where the store can (`FileStore.writeIfAbsentThenLinkMany`: the local store), store each event's bytes once:
   * a staged body in `<dir>/.slots/`, a claim holding only the chain link, the event file a hard link of the
   * body (about 1.1× the events' bytes instead of 2×). Default true. `false` writes claims that hold the event
   * too: twice the bytes, but with `'fsync'` one journal commit fewer per append (the body's fsync), which
   * measured up to ~1.8× faster durable appends on a loaded disk (see the README, "Storage and system calls").
   */
  stageBodies?: boolean;
  /**
   * The layout a new log is created with (default `'files'`). A log keeps the layout it was created with
   * whatever is asked later: one with a segment is always opened as a segment log (so a writer never commits
   * around it), and `'segment'` on a log that already holds file-per-event events keeps those (warned about).
   * `'segment'` on a store without `openAppendFile` (S3) fails with `UnsupportedLayoutError`.
   */
  layout?: EventLogLayout;
  /**
   * Segment layout only: when the reference's event files are written. `'each-commit'` (default): right after
   * each commit, before the append resolves, so a reader of event files (the Python reference) finds every event
   * at once. `'batched'`: off the commit path, by a background writer that appends do not wait for, once the log
   * has had no commit for 50 ms (an agent waiting for its model) or 4096 events' files are held, and the rest at
   * `close`; such a reader lags until then. `'at-close'`: only at `close` (holding their bytes in memory until
   * then). With `'batched'` or `'at-close'` a durable loop's commits create no files (each costs ~0.5–1 ms on a
   * loaded disk: see the README, "Segment layout"). The segment is the commit point in all three: a crash loses
   * no acknowledged event, and `open` rebuilds any event file missing or cut short.
   */
  eventFiles?: 'each-commit' | 'batched' | 'at-close';
  /**
   * Segment layout only: what `open` (and `refresh`) do when a committed record of the segment is damaged (a changed
   * byte, not what a crash leaves). Both first restore the lost events from their event files where the hash chain
   * proves them (warned about through `logger`; the segment is repaired by appending them again). When that cannot
   * be done, `'recover'` (default) throws `DamagedSegmentError` naming the events that could not be recovered;
   * `'read-intact-prefix'` opens the events before the damage read-only (warned about; an append throws
   * `ReadOnlyLogError`), so a damaged conversation can still be read or exported. Never silently shorter.
   */
  damagedSegment?: DamagedSegmentPolicy;
}

/** What opening a segment log does with damage it cannot repair (see `EventLogOptions.damagedSegment`). */
export type DamagedSegmentPolicy = 'recover' | 'read-intact-prefix';

/**
 * How a log commits its events (see the README, "Segment layout"): `'files'`, a slot claim per event (every
 * store); `'segment'`, one append-only file per log (`<dir>/.slots/segment`) with one write and one fdatasync
 * per commit, the event files derived from it (stores with `openAppendFile`: local and memory).
 */
export type EventLogLayout = 'files' | 'segment';

/** Options for `EventLog.append`. */
export interface AppendOptions {
  /** The index the caller expects the event to get; anything else fails with `AppendConflictError`. */
  expectedIndex?: number;
}

/** Options for `EventLog.refresh`. */
export interface RefreshOptions {
  /**
   * List the directory instead of only probing slot claims. Needed to see events written by writers
   * that do not claim slots (the Python reference); costs one listing of the whole directory.
   */
  relist?: boolean;
}

/** Event-file reads an `EventLog` keeps in flight at once. */
export const READ_CONCURRENCY = 32;
/** Event-file writes left running after their appends (see `claimThenPublish`) before an append waits for them. */
export const MAX_UNFINISHED_PUBLISHES = 4;
