import { StoreError } from '../../errors.js';
import type { StoreWrite } from '../../file-store.js';
import type { LogCore } from '../log-core.js';

/** Event files a background batch writes between two yields to the event loop (the local store's calls block). */
const YIELD_EVERY = 32;
/** Batches `'batched'` may hold unwritten before an append waits for the background writer (bounds the memory). */
const MAX_BATCHES_HELD = 4;

/**
 * The reference's event files of a segment log (`<dir>/event-….json`), derived from its segment: which committed
 * events' files are still to be written, when they are written (see `EventLogOptions.eventFiles`), and how many
 * of the first event files are known whole (`checked`, see `scope`).
 */
export class DerivedEventFiles {
  readonly #core: LogCore;
  /** Files that make a batch: 1 writes each commit's before its append resolves; Infinity only at close. */
  readonly #batch: number;
  readonly #pending: StoreWrite[] = [];
  #writing: Promise<void> | undefined;
  /**
   * The segment's `AppendFile.scope` (the boot and the segment's inode): while it holds, an event file seen whole
   * stays whole, so the first `checked` need no new look. Undefined where the store has none (always checked).
   */
  readonly scope: string | undefined;
  /** Event files 0..checked-1 are known whole (right size, or written by this instance) within `scope`. */
  checked = 0;

  constructor(core: LogCore, options: { batch: number; scope: string | undefined }) {
    this.#core = core;
    this.#batch = options.batch;
    this.scope = options.scope;
  }

  /**
   * Takes the files of events just committed. `'each-commit'` writes them now; `'batched'` starts the background
   * writer once a batch is held (the append does not wait for it, unless `MAX_BATCHES_HELD` batches are held:
   * a disk slower than the commits); `'at-close'` holds them.
   */
  async committed(files: readonly StoreWrite[]): Promise<void> {
    this.#pending.push(...files);
    if (this.#batch === 1) {
      await writeEventFiles(this.#core, this.#pending.splice(0));
      return;
    }
    if (this.#pending.length < this.#batch) return;
    const writing = this.#startWriter();
    if (this.#pending.length >= this.#batch * MAX_BATCHES_HELD) await writing;
  }

  #startWriter(): Promise<void> {
    this.#writing ??= (async () => {
      try {
        while (this.#pending.length >= this.#batch) {
          const files = this.#pending.splice(0, this.#batch);
          for (let from = 0; from < files.length; from += YIELD_EVERY) {
            // Off the commit path: the next commit's write and fdatasync go on between these chunks.
            await new Promise((resolve) => setImmediate(resolve));
            await writeEventFiles(this.#core, files.slice(from, from + YIELD_EVERY));
          }
        }
      } catch (error) {
        // Not a store failure (those are warned about inside): still nothing to lose, the segment holds the events.
        this.#core.logger?.warn(`event files were not written (${(error as Error).message}); rebuilt on open`);
      } finally {
        this.#writing = undefined;
      }
    })();
    return this.#writing;
  }

  /** Writes every file still held (the background writer's batch first); at `close`. */
  async flush(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
    await writeEventFiles(this.#core, this.#pending.splice(0));
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
    for (let from = this.checked; from < count; from += SIZE_CHUNK) {
      const chunk = Array.from({ length: Math.min(SIZE_CHUNK, count - from) }, (_, k) => core.paths.at(from + k)!);
      const sizes = await core.store.fileSizes(chunk);
      const wrong = sizes.findIndex((size, k) => size !== lengthOf(from + k));
      if (wrong !== -1) {
        this.checked = from + wrong;
        return;
      }
      this.checked = from + chunk.length;
    }
  }
}

/** Event files checked per `fileSizes` call (the open's check and `checkUpTo`). */
export const SIZE_CHUNK = 256;

/**
 * Writes event files the segment can rebuild; a failure is warned about (the events are committed). Resolves
 * with whether every file was written.
 */
export async function writeEventFiles(core: LogCore, files: readonly StoreWrite[]): Promise<boolean> {
  if (!core.rollsForward || files.length === 0) return true;
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
