import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { LeaseHeldError } from '../errors/lease-held-error.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import { isFileNotFound } from '../event-log/is-file-not-found.js';
import type { FileStore } from '../file-store.js';
import { validateStorePath } from '../store-path.js';
import type { AcquireLeaseOptions, Lease, Leases } from './lease.js';
import { type LeaseClock, systemLeaseClock } from './lease-clock.js';
import { watchLeaseDeadline } from './lease-deadline.js';

/** Options for `createFileStoreLeases`. */
export interface FileStoreLeasesOptions {
  /** Directory of the lease files inside the store. Default `.leases`. */
  dir?: string;
  /** How long a holder may go without renewing before another may take over, in ms. Default 15 000. */
  ttlMs?: number;
  /** This process's name in the lease files (for messages). Default `<hostname>:<pid>:<random>`. */
  owner?: string;
  /** The time heartbeats and expiry are measured by. Default real time (`systemLeaseClock`); tests pass a manual one. */
  clock?: LeaseClock;
}

const GENERATION = /\/gen-(\d{10})\.json$/;

function pad(generation: number): string {
  return String(generation).padStart(10, '0');
}

/**
 * Leases on any `FileStore` (memory, local, S3), built on its create-if-absent: generation N is the
 * file `<dir>/<key>/gen-N.json`, and only one writer can create it. The holder rewrites
 * `beat-N.json` every ttl/3; a contender takes generation N+1 only after watching that heartbeat
 * stand still for a whole ttl on its own monotonic clock, so no two machines' clocks are compared.
 * A holder checks for generation N+1 before each fenced write (`assertHeld`) and on every renewal, and counts
 * its lease lost once it can no longer renew before a contender may take over.
 */
export class FileStoreLeases implements Leases {
  readonly store: FileStore;
  readonly dir: string;
  readonly ttlMs: number;
  readonly owner: string;
  readonly clock: LeaseClock;

  constructor(store: FileStore, options: FileStoreLeasesOptions = {}) {
    this.store = store;
    this.dir = options.dir ?? '.leases';
    this.ttlMs = options.ttlMs ?? 15_000;
    if (!(Number.isInteger(this.ttlMs) && this.ttlMs >= 50))
      throw new InvalidStoreOptionsError('ttlMs', `expected an integer ≥ 50, got ${this.ttlMs}`);
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.clock = options.clock ?? systemLeaseClock;
  }

  async acquire(key: string, options: AcquireLeaseOptions = {}): Promise<Lease> {
    const base = `${this.dir}/${key}`;
    validateStorePath(base);
    const started = this.clock.now();
    const waitMs = options.waitMs ?? 0;
    // NaN would never compare as over: the wait would never end.
    if (!(waitMs >= 0)) throw new InvalidStoreOptionsError('waitMs', `expected a number of ms ≥ 0, got ${waitMs}`);
    for (;;) {
      options.signal?.throwIfAborted();
      const current = await this.#currentGeneration(base);
      let free = current === 0 || (await this.store.exists(`${base}/released-${pad(current)}.json`));
      if (!free) free = await this.#heartbeatStopped(base, current, started, waitMs, options.signal);
      if (free) {
        const next = current + 1;
        const record = JSON.stringify({ owner: this.owner, ttl_ms: this.ttlMs });
        // A contender may start watching the moment the create lands, before this call returns.
        const creating = this.clock.now();
        if (await this.store.writeIfAbsent(`${base}/gen-${pad(next)}.json`, record)) {
          const released = current > 0 && (await this.store.exists(`${base}/released-${pad(current)}.json`));
          const previous = current === 0 ? 'none' : released ? 'released' : 'expired';
          return this.#held({ key, base, generation: next, previous, renewedAt: creating });
        }
        continue;
      }
      if (this.clock.now() - started >= waitMs) {
        throw new LeaseHeldError({ leaseKey: key, owner: await this.#ownerOf(base, current) });
      }
    }
  }

  async #currentGeneration(base: string): Promise<number> {
    let highest = 0;
    for (const path of await this.store.list(base)) {
      const match = GENERATION.exec(path);
      if (match?.[1] !== undefined) highest = Math.max(highest, Number(match[1]));
    }
    // A listing may lag a creation on eventually consistent stores; probing the next names is exact.
    while (await this.store.exists(`${base}/gen-${pad(highest + 1)}.json`)) highest++;
    return highest;
  }

  /**
   * Watches generation `current`'s heartbeat: true once it stood still for a whole ttl (the holder is
   * gone), false as soon as it moves, or when the caller's wait is over before a ttl passed.
   */
  async #heartbeatStopped(
    base: string,
    current: number,
    started: number,
    waitMs: number,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const first = await this.#beat(base, current);
    const watchedSince = this.clock.now();
    // The holder renews on its own ttl: a contender configured shorter must not take a live holder for dead.
    const ttlMs = Math.max(this.ttlMs, await this.#ttlOf(base, current));
    for (;;) {
      await this.clock.sleep(Math.max(10, Math.floor(ttlMs / 5)), signal);
      if ((await this.#beat(base, current)) !== first) return false;
      if (await this.store.exists(`${base}/released-${pad(current)}.json`)) return true;
      if (await this.store.exists(`${base}/gen-${pad(current + 1)}.json`)) return false;
      if (this.clock.now() - watchedSince >= ttlMs) return true;
      // Without waiting, a contender still watches one ttl: that is what telling a live holder from a dead one costs.
      if (waitMs > 0 && this.clock.now() - started >= waitMs) return false;
    }
  }

  async #beat(base: string, generation: number): Promise<string> {
    try {
      return await this.store.read(`${base}/beat-${pad(generation)}.json`);
    } catch (error) {
      if (isFileNotFound(error)) return '';
      throw error;
    }
  }

  /** The ttl generation `generation`'s holder renews on (0 when its record does not say). */
  async #ttlOf(base: string, generation: number): Promise<number> {
    try {
      const record = JSON.parse(await this.store.read(`${base}/gen-${pad(generation)}.json`)) as { ttl_ms?: unknown };
      return Number.isSafeInteger(record.ttl_ms) && (record.ttl_ms as number) > 0 ? (record.ttl_ms as number) : 0;
    } catch {
      return 0;
    }
  }

  async #ownerOf(base: string, generation: number): Promise<string> {
    try {
      const record = JSON.parse(await this.store.read(`${base}/gen-${pad(generation)}.json`)) as { owner?: unknown };
      return typeof record.owner === 'string' ? record.owner : '?';
    } catch {
      return '?';
    }
  }

  /**
   * `renewedAt`: when the generation file began to be written. A contender takes the lease over once its heartbeat
   * stood still for a whole ttl, watched from no earlier than the moment a beat (or the generation) began to be
   * written; so the lease is this holder's until its deadline, a ttl after its last successful renewal began, and
   * not a moment longer: past it `assertHeld` refuses and the signal aborts, whether or not a renewal is still out
   * (hung, or the process was paused and none could run).
   */
  #held(options: {
    key: string;
    base: string;
    generation: number;
    previous: Lease['previous'];
    renewedAt: number;
  }): Lease {
    const { key, base, generation, previous } = options;
    const controller = new AbortController();
    const lose = (reason: unknown = new LeaseLostError({ leaseKey: key, generation })): void =>
      controller.abort(reason);
    let beats = 0;
    let renewedAt = options.renewedAt;
    let released = false;
    const expired = (): boolean => this.clock.now() >= renewedAt + this.ttlMs;
    const takenOver = (): Promise<boolean> => this.store.exists(`${base}/gen-${pad(generation + 1)}.json`);
    const renew = async (): Promise<boolean> => {
      if (released || controller.signal.aborted) return false;
      const began = this.clock.now();
      // Past the deadline a contender may already own it: a renewal now would hand this holder a second term.
      if (expired() || (await takenOver())) {
        lose();
        return false;
      }
      beats++;
      await this.store.write(
        `${base}/beat-${pad(generation)}.json`,
        JSON.stringify({ owner: this.owner, beat: beats }),
      );
      // A beat that landed past the deadline came too late: a contender watching the old one may have taken over.
      if (controller.signal.aborted || expired()) {
        lose();
        return false;
      }
      renewedAt = Math.max(renewedAt, began);
      return true;
    };
    let renewing: Promise<unknown> = Promise.resolve();
    const interval = Math.max(10, Math.floor(this.ttlMs / 3));
    const stopHeartbeat = this.clock.every(interval, () => {
      const tick = this.clock.now();
      renewing = renew().catch((error: unknown) => {
        // The next beat would come at or past the deadline, too late to keep a contender off: lost now.
        if (tick + interval - renewedAt >= this.ttlMs) lose(error);
      });
      return renewing;
    });
    // The signal aborts at the deadline even while every renewal hangs.
    let stopDeadline = (): void => undefined;
    const stop = (): void => {
      stopHeartbeat();
      stopDeadline();
    };
    controller.signal.addEventListener('abort', stop, { once: true });
    stopDeadline = watchLeaseDeadline(
      this.clock,
      () => renewedAt + this.ttlMs,
      () => lose(),
    );
    return {
      key,
      generation,
      owner: this.owner,
      previous,
      signal: controller.signal,
      async assertHeld() {
        // Released: the next owner may take it without waiting, so a write checked now could race its first.
        if (released) throw new LeaseLostError({ leaseKey: key, generation });
        // The deadline again after the read: the process may have been paused while it was out.
        if (controller.signal.aborted || expired() || (await takenOver()) || expired()) {
          lose();
          throw new LeaseLostError({ leaseKey: key, generation });
        }
      },
      renew,
      release: async () => {
        if (released) return;
        released = true;
        stop();
        // A renewal under way finishes first, so nothing of this lease is written after release.
        await renewing;
        await this.store.writeIfAbsent(
          `${base}/released-${pad(generation)}.json`,
          JSON.stringify({ owner: this.owner }),
        );
      },
    };
  }
}

/** `new FileStoreLeases(store, options)`. */
export function createFileStoreLeases(store: FileStore, options?: FileStoreLeasesOptions): FileStoreLeases {
  return new FileStoreLeases(store, options);
}
