import type { StoreError } from './errors.js';
import type { AppendFence } from './event-log/event-log-like.js';

/**
 * One async interface for path-addressed blobs. Every backend (memory, local filesystem, S3)
 * implements it, and the contract suite in `@x/store/testing` holds them all to the same behaviour.
 *
 * Paths are relative, `/`-separated, and confined: `..` segments, absolute paths, backslashes and
 * empty segments are rejected with an `InvalidPathError` on every backend (see `validateStorePath`).
 * A trailing `/` is allowed only on the prefix given to `list`.
 */
export interface FileStore {
  /** Reads a file as UTF-8 text. Throws `FileNotFoundError` when it does not exist. */
  read(path: string): Promise<string>;

  /**
   * Writes a file, replacing any previous content. The write is atomic: a reader sees the old
   * content or the new, never a mix or a partial file, even if the process dies mid-write.
   * With `options.fence` (a held lease), a store whose `fencesWrites` is true refuses the write with
   * `LeaseLostError`, atomically with it (nothing written), once the lease's generation is no longer current;
   * other stores ignore `fence` (their caller checks the lease just before: see `writeUnderLease`).
   */
  write(path: string, data: string | Uint8Array, options?: FileStoreWriteOptions): Promise<void>;

  /** True when `write` checks `options.fence` in the same atomic write as the file (database stores). */
  readonly fencesWrites?: boolean;

  /**
   * Atomically creates a file only if nothing exists at `path`. Resolves `true` when this call
   * created it and `false` when a file was already there (whoever wrote it). When several writers
   * race for one path, on any backend and across processes or machines, exactly one gets `true`.
   * Like `write`, the created file is visible whole or not at all.
   */
  writeIfAbsent(path: string, data: string | Uint8Array): Promise<boolean>;

  /**
   * Copies the file at `from` to `to`, replacing `to` atomically like `write`. Throws
   * `FileNotFoundError` when `from` does not exist. Backends avoid moving the data through this
   * process where they can (a hard link on the filesystem, a server-side CopyObject on S3); the
   * EventLog publishes each event file this way from its slot claim.
   */
  copy(from: string, to: string): Promise<void>;

  /**
   * Lists the entries directly under `prefix` (a directory path; `''` is the root). Files come back
   * as `prefix/name`, sub-directories as `prefix/name/` (trailing slash), sorted by code point.
   * A missing directory lists as `[]`.
   */
  list(prefix: string): Promise<string[]>;

  /**
   * Optional: `list` in no particular order (the same entries), for callers that order entries
   * themselves: `EventLog.open` places event files by the index in their names, so sorting a
   * 100,000-name listing first would be wasted. Stores that list in order anyway need not have it.
   */
  listUnordered?(prefix: string): Promise<string[]>;

  /**
   * Optional: an opaque token for the set of entries directly in the directory `dir`, or `undefined` when
   * `dir` does not exist. It changes whenever an entry directly in `dir` is created, removed or renamed
   * (a file written into a sub-directory does not change it), so two equal tokens mean nothing was added
   * to or removed from `dir` between the two calls and a listing taken between them still holds.
   * `EventLog` uses it to trust its persisted name index instead of listing a long log's directory.
   * The local store returns `dev:ino:ctime` of the directory (its ctime, which no user call can set,
   * unlike its mtime); with `settled`, it first waits until that ctime is older than the kernel's
   * timestamp granularity, so that any later change is sure to get a different ctime. The memory store
   * counts changes per directory. S3 has none (a prefix has no version): callers list.
   */
  listingVersion?(dir: string, options?: { settled?: boolean }): Promise<string | undefined>;

  /** Deletes a file, or a directory and everything under it. Deleting nothing is not an error. */
  delete(path: string): Promise<void>;

  /** True when `path` is a file or a non-empty directory. */
  exists(path: string): Promise<boolean>;

  /**
   * Optional: reads many files as bytes, in the order given. Each entry is the file's exact bytes, or the
   * `StoreError` that `read` would have thrown for it (any other error rejects). Backends implement it where they
   * can beat one `read` per file (the local store: one directory handle, synchronous calls in short batches);
   * callers fall back to `read` when it is absent.
   */
  readBatch?(paths: readonly string[]): Promise<(Uint8Array | StoreError)[]>;

  /**
   * Optional: `writeIfAbsent(first.path, first.data)` and, only when that call created the file,
   * `write(then.path, then.data)`, with the guarantees of those two calls. `onCreated` runs once the
   * first file exists and before the second is written, so the caller learns of the creation even when
   * the second write fails (which rejects as `write` would). Resolves like `writeIfAbsent`. The
   * `EventLog` appends with it (a slot claim, then its event file): the local store walks to the two
   * directories once, and with `'fsync'` overlaps the two files' fsyncs. Callers fall back to the two calls.
   * `options.onVersions`, when the store can, receives the listing versions (see `listingVersion`) of
   * `then`'s directory just before the first file is created and just after the second is published, read
   * on the directory this call opened; it is not called when they cannot be read that way.
   * `options.deferThen`, for callers that can rebuild `then` from `first` (the EventLog rolls an event file
   * forward from its claim, and rebuilds one a power loss left empty or cut short): the store may resolve
   * once `first` is durable, leaving `then`'s durability to later. S3 hands the promise of `then`'s PutObject
   * to this callback and lets it run on (await it before relying on `then` being stored), so an append costs
   * one request's latency instead of two. The local store with `'fsync'` writes and renames `then` before
   * resolving but fsyncs neither it nor its directory (the kernel writes them back within seconds), so an
   * append waits for two fsyncs, a file and its directory, as one durable file does; it never calls the
   * callback. Without the option every store waits until `then` is durable too.
   */
  writeIfAbsentThenWrite?(
    first: StoreWrite,
    then: StoreWrite,
    onCreated: () => void,
    options?: WritePairOptions,
  ): Promise<boolean>;

  /**
   * Optional: `writeIfAbsentThenWrite(first, second)` for each pair in order, stopping at the first whose
   * `first` exists; resolves with how many pairs were written (a prefix). `onCreated(i)` runs for each created
   * pair before its `second` is written. The local store does the whole batch under one walk with shared fsyncs (every temp
   * file fsynced at once, one fsync of the claims' directory after the links, one of the files' directory after
   * the renames), so a batch waits for as many fsyncs as one pair. `options.deferThen` as for one pair (the
   * local store then fsyncs neither the `second`s nor their directory). `EventLog.appendMany` uses it.
   */
  writeIfAbsentThenWriteMany?(
    pairs: readonly { readonly first: StoreWrite; readonly second: StoreWrite }[],
    onCreated: (index: number) => void,
    options?: WritePairOptions,
  ): Promise<number>;

  /**
   * Optional: stores each item's `body` once, under two names. For each item in order: `write(body)`, then
   * `writeIfAbsent(first)`; when that created `first`, `body` is published at `linkAt` as `copy(body, linkAt)`
   * would (a hard link: one file, two names); when `first` exists, the item's `body` is removed and the call
   * stops. Resolves with how many items were created (a prefix); `onCreated(i)` runs once item `i`'s `first`
   * exists, before its `linkAt`. `first` exists only once its `body` is in place, and durable only once it is.
   * `options` as for `writeIfAbsentThenWriteMany`: with `deferThen` the store may leave the `linkAt` names'
   * durability to later (the local store does not fsync their directory). The local store implements it under
   * one walk with shared fsyncs; the `EventLog` appends with it where it exists (a body in `.slots/`, a claim
   * holding only the chain link, the event file a link of the body), so an event's bytes are stored once.
   */
  writeIfAbsentThenLinkMany?(
    items: readonly { readonly first: StoreWrite; readonly body: StoreWrite; readonly linkAt: string }[],
    onCreated: (index: number) => void,
    options?: WritePairOptions,
  ): Promise<number>;

  /**
   * Optional: opens the file at `path` for appending, creating it (and its directory) if missing: the commit
   * point of the `EventLog`'s segment layout (see the README, "Segment layout"). The local store opens it with
   * `O_APPEND`, so writers in several processes never overwrite each other's bytes; memory keeps a buffer. S3
   * has none (an object cannot be appended to).
   */
  openAppendFile?(path: string): Promise<AppendFile>;

  /**
   * Optional: writes each file as `write` would (atomically: old content or new, never a mix) but does not wait
   * for it to be durable (no fsync on the local store). For files the caller can rebuild from a durable source
   * (the segment layout's event files). Stores without it: callers use `write`.
   */
  writeRebuildable?(files: readonly StoreWrite[]): Promise<void>;

  /**
   * Optional: the size in bytes of each file, `undefined` where there is no regular file, in the order given
   * (the local store: one directory handle, an lstat each). The segment layout uses it on open to find event
   * files a power loss left empty.
   */
  fileSizes?(paths: readonly string[]): Promise<(number | undefined)[]>;

  /** A human-readable location for messages, e.g. `/home/me/.x/conversations/abc` or `s3://bucket/prefix/abc`. */
  describe(path: string): string;
}

/** Options of `FileStore.write`. */
export interface FileStoreWriteOptions {
  /** Refuse the write once this lease generation is no longer current (see `fencesWrites`). */
  readonly fence?: AppendFence;
}

/** Options of `FileStore.writeIfAbsentThenWrite`. */
export interface WritePairOptions {
  onVersions?(before: string, after: string): void;
  deferThen?(rest: Promise<void>): void;
}

/** One file to write: its store path and its content. */
export interface StoreWrite {
  readonly path: string;
  readonly data: string | Uint8Array;
}

/** A file opened with `FileStore.openAppendFile`. */
export interface AppendFile {
  /**
   * Appends `data` with one write (never interleaved with another writer's on the local filesystem) and, when
   * the store is durable, one `fdatasync`; resolves with the file's size just after (which includes whatever other
   * writers appended meanwhile). A write cut short (disk full) rejects; its bytes may remain.
   */
  append(data: Uint8Array): Promise<number>;
  /** The file's bytes from `offset`: `length` of them (fewer at its end), or up to its current end. */
  readFrom(offset: number, length?: number): Promise<Uint8Array>;
  /** Releases the descriptor. Idempotent. */
  close(): Promise<void>;
  /**
   * Optional: a string that stays the same only while every file written beside this one (without fsync) that
   * was once seen whole is still whole: the local store's is the kernel's boot id and the file's device and
   * inode, so a reboot (a power loss may have dropped unsynced writes) or a copy of the directory changes it.
   * The segment layout records it with the event files it has checked, to skip checking them again.
   */
  readonly scope?: string;
}
