import { createFileStoreLeases, type FileStore, type Lease, type Leases, writeUnderLease } from '@x/store';
import { ConversationAlreadyRunningError } from '../errors/conversation-already-running-error.js';
import { acquireRunLease } from './run-lease.js';

/** Where a conversation's run leases come from (`ConversationOptions.leases`, `leaseTtlMs`, `leaseWaitMs`). */
export interface RunOwnershipOptions {
  conversationId: string;
  store: FileStore;
  /** The conversation's directory in the store. */
  directory: string;
  leases: Leases | false | undefined;
  leaseTtlMs: number | undefined;
  leaseWaitMs: number | undefined;
  /** Whether the log checks the lease inside the write (`EventLogLike.fencesAppends`). */
  fencesAppends: () => boolean;
  /** Whether a run is in progress in this instance (it takes, holds and releases the lease itself). */
  running: () => boolean;
}

/** What an idle instance's state write does when another owner holds the lease (`RunOwnership.briefly`). */
export interface BrieflyOptions {
  /** `'skip'`: do nothing (the holder writes a newer one); `'refuse'`: `ConversationAlreadyRunningError`. */
  held: 'skip' | 'refuse';
  /** How long to wait for the holder (default: none for `'skip'`, `leaseWaitMs` for `'refuse'`). */
  waitMs?: number | undefined;
}

/**
 * Who may append to a conversation: the run lease of the run in progress, taken from the caller's leases (the
 * conversation is shared between replicas) or the default ones (one process per conversation, checked).
 */
export class RunOwnership {
  readonly #conversationId: string;
  /** Leases the caller passed: the conversation is shared between replicas (appends at expected indices). */
  readonly #shared: Leases | undefined;
  /**
   * Who hands out the run lease, and its key: the caller's leases (keyed by the conversation's directory), else
   * the default ones, kept in the conversation's own directory (`<dir>/.lease/`, as the reference server keeps
   * its lease file there), so the persistence directory holds conversation directories only.
   */
  readonly #owners: { leases: Leases; key: string } | undefined;
  readonly #directory: string;
  readonly #waitMs: number | undefined;
  readonly #fencesAppends: () => boolean;
  readonly #running: () => boolean;
  /** The lease of the run in progress: every append is checked against it. */
  #lease: Lease | undefined;

  constructor(options: RunOwnershipOptions) {
    this.#conversationId = options.conversationId;
    this.#directory = options.directory;
    this.#waitMs = options.leaseWaitMs;
    this.#fencesAppends = options.fencesAppends;
    this.#running = options.running;
    this.#shared = options.leases === false ? undefined : options.leases;
    this.#owners =
      options.leases === false
        ? undefined
        : options.leases !== undefined
          ? { leases: options.leases, key: options.directory }
          : {
              leases: createFileStoreLeases(options.store, {
                dir: options.directory,
                ...(options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs }),
              }),
              key: '.lease',
            };
  }

  /** Whether the conversation is shared with other processes or replicas (the caller passed `leases`). */
  get shared(): boolean {
    return this.#shared !== undefined;
  }

  /** The lease of the run in progress, if any: appends of a shared conversation are fenced with it. */
  get lease(): Lease | undefined {
    return this.#lease;
  }

  /**
   * A run's appends stop the moment another owner takes the conversation over. Shared (caller's leases): checked
   * inside the write by logs that can (PostgreSQL: the insert's transaction), just before it by the others. Default
   * ownership: the lease's own renewals notice a takeover (every third of its ttl), so an append costs no store
   * round trip; only a process stalled for a whole ttl can be taken over, and it stops at its next renewal.
   */
  async assertOwner(): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) return;
    if (this.#shared === undefined) {
      if (lease.signal.aborted) throw lease.signal.reason;
      return;
    }
    if (!this.#fencesAppends()) await lease.assertHeld();
  }

  /**
   * Writes a durable state file (base_state.json, x_budget.json) as the lease's holder: once another owner took the
   * lease over, the write is refused with `LeaseLostError` and nothing is written, so a stale owner cannot clobber
   * the new one's file. Shared (caller's leases): checked inside the write by stores that can (PostgreSQL: the
   * upsert), just before it by the others (`writeUnderLease`). Default ownership: checked just before (its leases
   * live in the store's files, not where a fencing store looks). An idle instance of a shared conversation holds no
   * lease: it takes one for the write (`briefly`), and writes nothing while another owner holds it (that owner
   * writes a newer file). Default ownership without a run in progress: a plain write (one process per conversation).
   */
  async write(store: FileStore, path: string, data: string): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) {
      if (this.#shared === undefined || this.#running()) return store.write(path, data);
      await this.briefly(() => this.write(store, path, data), { held: 'skip' });
      return;
    }
    if (this.#shared !== undefined) return writeUnderLease(store, path, data, lease);
    await lease.assertHeld();
    await store.write(path, data);
  }

  /**
   * Runs `work` holding the lease: an idle instance of a shared conversation (no run here, no lease held) takes it
   * for `work` and lets it go after, so the state files it writes are fenced as a run's are and no other owner runs
   * meanwhile. Held by another owner (after `waitMs`): skipped (undefined) or refused, as `held` says. Anything else
   * (default ownership, a run in progress, the lease already held here): `work` as it is.
   */
  async briefly<T>(work: () => Promise<T>, options: BrieflyOptions): Promise<T | undefined> {
    if (this.#shared === undefined || this.#lease !== undefined || this.#running()) return work();
    try {
      await this.take(undefined, options.waitMs ?? (options.held === 'skip' ? 0 : this.#waitMs));
    } catch (error) {
      if (options.held === 'skip' && ConversationAlreadyRunningError.isInstance(error)) return undefined;
      throw error;
    }
    try {
      return await work();
    } finally {
      await this.release();
    }
  }

  /** Takes the run lease (undefined when the conversation has no leases), waiting up to `waitMs` for its holder. */
  async take(signal: AbortSignal | undefined, waitMs = this.#waitMs): Promise<Lease | undefined> {
    const lease = await acquireRunLease({
      leases: this.#owners?.leases,
      conversationId: this.#conversationId,
      key: this.#owners?.key ?? this.#directory,
      waitMs,
      signal,
    });
    this.#lease = lease;
    return lease;
  }

  /** Lets the run lease go (a failure to release only delays the next owner until the lease expires). */
  async release(): Promise<void> {
    const lease = this.#lease;
    this.#lease = undefined;
    await lease?.release().catch(() => undefined);
  }
}
