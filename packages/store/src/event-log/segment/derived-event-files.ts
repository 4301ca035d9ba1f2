import { StoreError } from '../../errors.js';
import type { StoreWrite } from '../../file-store.js';
import type { LogCore } from '../log-core.js';

/** Event files the background writer writes between two yields to the event loop (the local store's calls block). */
const YIELD_EVERY = 32;
/** `'batched'`: how long without a commit makes the log idle, when the held files are written. */
const IDLE_MS = 50;
/** `'batched'`: files held that are written without waiting for idle (bounds the memory: ~2 KB an event). */
const MAX_HELD = 4096;

/** Runs of files written beyond `checked` (past a gap) that are remembered; past that, `checkUpTo` finds them. */
const MAX_RUNS = 4096;

/** When a segment log's event files are written (see `EventLogOptions.eventFiles`). */
export type EventFilesWhen = 'each-commit' | 'batched' | 'at-close';

/**
 * The reference's event files of a segment log (`<dir>/event-….json`), derived from its segment: which committed
 * events' files are still to be written, when they are written (see `EventLogOptions.eventFiles`), and how many
 * of the first event files are known whole (`checked`, see `scope`).
 */
export class DerivedEventFiles {
  readonly #core: LogCore;
  readonly #when: EventFilesWhen;
  readonly #pending: HeldFile[] = [];
  #writing: Promise<void> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;
  /**
   * The segment's `AppendFile.scope` (the boot and the segment's inode): while it holds, an event file seen whole
   * stays whole, so the first `checked` need no new look. Undefined where the store has none (always checked).
   */
  readonly scope: string | undefined;
  #checked = 0;
  /** Files this instance wrote after a gap in `checked` (another writer's events): index → end of the run. */
  readonly #runs = new Map<number, number>();

  constructor(core: LogCore, options: { when: EventFilesWhen; scope: string | undefined }) {
    this.#core = core;
    this.#when = options.when;
    this.scope = options.scope;
  }

  /** Event files 0..checked-1 are known whole (right size, or written by this instance) within `scope`. */
  get checked(): number {
    return this.#checked;
  }

  /** Moves `checked` to `count` (when further), and past the runs this instance wrote that then follow it. */
  advance(count: number): void {
    if (count > this.#checked) this.#checked = count;
    for (let moved = true; moved; ) {
      moved = false;
      for (const [start, end] of this.#runs) {
        if (start > this.#checked) continue;
        this.#runs.delete(start);
        if (end > this.#checked) this.#checked = end;
        moved = true;
      }
    }
  }

  /** Writes `files`; those written are whole from now on (the store writes by rename), so `checked` moves past them. */
  async #write(files: readonly HeldFile[]): Promise<void> {
    if (!(await writeEventFiles(this.#core, files))) return;
    for (const { index } of files) {
      if (index === this.#checked) this.advance(index + 1);
      else if (index > this.#checked && this.#runs.size < MAX_RUNS) this.#runs.set(index, index + 1);
    }
  }

  /** A commit starts: the log is not idle while it waits for its fdatasync (which may take longer than `IDLE_MS`). */
  commitStarts(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
  }

  /**
   * Takes the files of events just committed. `'each-commit'` writes them now. `'batched'` holds them for the
   * background writer, started once no commit ran for `IDLE_MS` (an agent waiting for its model) or when
   * `MAX_HELD` are held; an append waits for it only when twice that many are held (a disk slower than the
   * commits). `'at-close'` holds them until `flush`.
   */
  async committed(files: readonly HeldFile[]): Promise<void> {
    this.#pending.push(...files);
    if (this.#when === 'each-commit') {
      try {
        await this.#write(this.#pending.splice(0));
      } catch (error) {
        // Not a store failure (those are warned about inside), still after the commit: the append must resolve,
        // as one that rejected would be retried and refused as a duplicate. The segment holds the events.
        this.#core.logger?.warn(`event files were not written (${(error as Error).message}); rebuilt on open`);
      }
      return;
    }
    if (this.#when === 'at-close' || this.#pending.length === 0) return;
    if (this.#pending.length < MAX_HELD) {
      this.#armIdle();
      return;
    }
    const writing = this.#startWriter();
    if (this.#pending.length >= MAX_HELD * 2) await writing;
  }

  #armIdle(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      this.#idle = undefined;
      void this.#startWriter();
    }, IDLE_MS);
    // A process may end without `close`: the files held are then rebuilt by the next open.
    this.#idle.unref?.();
  }

  /** Writes the files held now (and, while `MAX_HELD` more came meanwhile, those), in the background. */
  #startWriter(): Promise<void> {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
    this.#writing ??= (async () => {
      try {
        let files = this.#pending.splice(0);
        while (files.length > 0) {
          for (let from = 0; from < files.length; from += YIELD_EVERY) {
            // Off the commit path: commits go on between these chunks.
            await new Promise((resolve) => setImmediate(resolve));
            await this.#write(files.slice(from, from + YIELD_EVERY));
          }
          files = this.#pending.length >= MAX_HELD ? this.#pending.splice(0) : [];
        }
      } catch (error) {
        // Not a store failure (those are warned about inside): still nothing to lose, the segment holds the events.
        this.#core.logger?.warn(`event files were not written (${(error as Error).message}); rebuilt on open`);
      } finally {
        this.#writing = undefined;
        if (this.#pending.length > 0 && this.#when === 'batched') this.#armIdle();
      }
    })();
    return this.#writing;
  }

  /** Writes every file still held (the background writer's batch first); at `close`. */
  async flush(): Promise<void> {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
    while (this.#writing !== undefined) await this.#writing;
    await this.#write(this.#pending.splice(0));
  }

  /**
   * Moves `checked` past the event files up to `count` that have their record's size (an lstat each, from
   * `checked` on: the files this instance's appends and other writers wrote since the open's check), stopping at
   * the first that does not (written by a writer still at work, or lost: the next open looks again and rebuilds
   * it). At `close`, so the segment index it writes lets the next open skip them. `lengthOf(i)` is event i's size.
   */
  async checkUpTo(count: number, lengthOf: (index: number) => number): Promise<void> {
    const core = this.#core;
    if (this.scope === undefined || !core.store.fileSizes || !core.rollsForward) return;
    while (this.#checked < count) {
      const from = this.#checked;
      const chunk = Array.from({ length: Math.min(SIZE_CHUNK, count - from) }, (_, k) => core.paths.at(from + k)!);
      const sizes = await core.store.fileSizes(chunk);
      const wrong = sizes.findIndex((size, k) => size !== lengthOf(from + k));
      this.advance(from + (wrong === -1 ? chunk.length : wrong));
      if (wrong !== -1) return;
    }
  }
}

/** An event file held to be written: its store write, and its event's index. */
export interface HeldFile extends StoreWrite {
  readonly index: number;
}

/** Event files checked per `fileSizes` call (the open's check and `checkUpTo`). */
export const SIZE_CHUNK = 256;

/**
 * Writes event files the segment can rebuild; a failure is warned about (the events are committed). Resolves
 * with whether every file was written.
 */
export async function writeEventFiles(core: LogCore, files: readonly StoreWrite[]): Promise<boolean> {
  if (files.length === 0) return true;
  // A reader that must not write to the directory: its files are left for a writer's open to rebuild.
  if (!core.rollsForward) return false;
  try {
    if (core.store.writeRebuildable) await core.store.writeRebuildable(files);
    else for (const file of files) await core.store.write(file.path, file.data);
    return true;
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    core.logger?.warn(`${error.message}; the event is kept in the segment and its file is rebuilt from it on open`);
    return false;
  }
}
