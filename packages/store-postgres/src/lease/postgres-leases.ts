import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type AcquireLeaseOptions,
  type Lease,
  type LeaseClock,
  LeaseHeldError,
  LeaseLostError,
  type Leases,
  systemLeaseClock,
  watchLeaseDeadline,
} from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { InvalidPostgresOptionsError } from '../errors/invalid-postgres-options-error.js';
import type { LeaseFence } from '../event-log/postgres-event-log.js';
import { isConnectionFailure } from '../internal/pg-errors.js';
import { checkedKey } from '../internal/postgres-text.js';
import { retryOnConnectionFailure } from '../internal/retry.js';

/** Options for `createPostgresLeases`. */
export interface PostgresLeasesOptions {
  /** How long a lease outlives its last renewal, by the database's clock, in ms. Default 15 000. */
  ttlMs?: number;
  /** This process's name in the lease rows (for messages). Default `<hostname>:<pid>:<random>`. */
  owner?: string;
  /**
   * This process's side of the timing: how often it renews, polls a held lease, and how long it goes without a
   * renewal before it counts the lease lost. Default real time. Expiry itself is always the database's clock.
   */
  clock?: LeaseClock;
}

/** A held lease, renewed in the background until released or lost; usable as a `PostgresEventLog` fence. */
export interface PostgresLease extends Lease, LeaseFence {}

/**
 * Leases with fencing tokens. Taking a lease bumps its generation (monotonically, in the database),
 * and a `PostgresEventLog` opened with the lease as its `fence` refuses every append once the
 * generation moved on. Expiry is judged only by the database server's clock, never by comparing
 * clocks of different machines; a holder that cannot renew within a ttl, by its own monotonic
 * clock, considers the lease lost.
 */
export class PostgresLeases implements Leases {
  readonly database: PostgresDatabase;
  readonly ttlMs: number;
  readonly owner: string;
  readonly clock: LeaseClock;
  readonly #table: string;

  constructor(database: PostgresDatabase, options: PostgresLeasesOptions = {}) {
    this.database = database;
    this.ttlMs = options.ttlMs ?? 15_000;
    if (!(Number.isInteger(this.ttlMs) && this.ttlMs >= 100))
      throw new InvalidPostgresOptionsError('ttlMs', `expected an integer ≥ 100, got ${this.ttlMs}`);
    this.owner = checkedKey('owner', options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`);
    this.clock = options.clock ?? systemLeaseClock;
    this.#table = `${database.tablePrefix}leases`;
  }

  /**
   * Takes the lease `key`: free, released or expired → held with the next generation. Held by a
   * live owner → `LeaseHeldError`, or, with `waitMs`, polls until it can take it.
   */
  async acquire(key: string, options: AcquireLeaseOptions = {}): Promise<PostgresLease> {
    checkedKey('key', key);
    const started = this.clock.now();
    for (;;) {
      options.signal?.throwIfAborted();
      // The row's expiry starts when the database runs the upsert, no earlier than this: the local deadline counts
      // from here, so it never falls after the database's.
      const attempted = this.clock.now();
      const rows = await this.database.query<{ generation: string; previous: 'none' | 'released' | 'expired' }>(
        `WITH old AS (SELECT expires_at FROM ${this.#table} WHERE lease_key = $1)
         INSERT INTO ${this.#table} AS lease (lease_key, generation, owner, expires_at)
         VALUES ($1, 1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (lease_key) DO UPDATE
           SET generation = lease.generation + 1, owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
           WHERE lease.expires_at <= clock_timestamp()
         RETURNING generation, CASE
           WHEN NOT EXISTS (SELECT 1 FROM old) THEN 'none'
           WHEN (SELECT expires_at FROM old) = '-infinity' THEN 'released'
           ELSE 'expired' END AS previous`,
        [key, this.owner, this.ttlMs],
      );
      if (rows[0] !== undefined) return this.#held(key, Number(rows[0].generation), rows[0].previous, attempted);
      const holder = await this.database.query<{ owner: string }>(
        `SELECT owner FROM ${this.#table} WHERE lease_key = $1`,
        [key],
      );
      const waitMs = options.waitMs ?? 0;
      if (this.clock.now() - started >= waitMs)
        throw new LeaseHeldError({ leaseKey: key, owner: holder[0]?.owner ?? '?' });
      await this.clock.sleep(Math.min(250, Math.max(10, this.ttlMs / 10)), options.signal);
    }
  }

  /** The current generation and owner of `key`, whether or not it is live. */
  async inspect(key: string): Promise<{ generation: number; owner: string; live: boolean } | undefined> {
    checkedKey('key', key);
    const rows = await this.database.query<{ generation: string; owner: string; live: boolean }>(
      `SELECT generation, owner, expires_at > clock_timestamp() AS live FROM ${this.#table} WHERE lease_key = $1`,
      [key],
    );
    const row = rows[0];
    return row === undefined ? undefined : { generation: Number(row.generation), owner: row.owner, live: row.live };
  }

  /**
   * Keys of the leases whose holder stopped renewing without releasing them (killed, machine lost, cut
   * off): expired by the database's clock, not released. What a recovery sweep takes over. Oldest first.
   */
  async expired(options: { limit?: number } = {}): Promise<string[]> {
    const limit = options.limit ?? 100;
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 10_000))
      throw new InvalidPostgresOptionsError('limit', `expected an integer from 1 to 10000, got ${limit}`);
    const rows = await this.database.query<{ lease_key: string }>(
      `SELECT lease_key FROM ${this.#table}
       WHERE expires_at <= clock_timestamp() AND expires_at <> '-infinity'
       ORDER BY expires_at LIMIT ${limit}`,
    );
    return rows.map((row) => row.lease_key);
  }

  /**
   * `renewedAt`: when the last successful renewal (or the acquisition) began, by this process's clock. The database
   * moved the row's expiry a ttl past a moment no earlier than that, so until `renewedAt + ttl` (the deadline) no
   * other owner can have taken it; from the deadline on this holder refuses `assertHeld` and aborts its signal,
   * whether or not a renewal is still out (hung, or the process was paused and none could run).
   */
  #held(key: string, generation: number, previous: PostgresLease['previous'], renewedAt: number): PostgresLease {
    const controller = new AbortController();
    const lose = (reason: unknown = new LeaseLostError({ leaseKey: key, generation })): void =>
      controller.abort(reason);
    let released = false;
    const expired = (): boolean => this.clock.now() >= renewedAt + this.ttlMs;
    const renew = async (): Promise<boolean> => {
      if (released || controller.signal.aborted) return false;
      const began = this.clock.now();
      // Past the deadline another owner may have it already; renewing the row now would keep every owner out
      // for another ttl on behalf of a holder that must stop.
      if (expired()) {
        lose();
        return false;
      }
      const rows = await this.database.query(
        `UPDATE ${this.#table} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE lease_key = $1 AND generation = $2 RETURNING 1`,
        [key, generation, this.ttlMs],
      );
      // An answer past the deadline came too late: this process cannot tell whether another owner ran meanwhile.
      if (rows.length === 0 || controller.signal.aborted || expired()) {
        lose();
        return false;
      }
      renewedAt = Math.max(renewedAt, began);
      return true;
    };
    // A connection failure is retried at the next beat: the deadline watch below loses the lease if none gets
    // through in time. Anything else (the table gone, a bad query) will not heal by waiting.
    const stopHeartbeat = this.clock.every(Math.max(50, Math.floor(this.ttlMs / 3)), () =>
      renew().catch((error: unknown) => {
        if (!isConnectionFailure(error)) lose(error);
      }),
    );
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
      assertHeld: async () => {
        // Released: the next owner may take it at once (the row stays until then, so the query below would pass).
        if (released) throw new LeaseLostError({ leaseKey: key, generation });
        if (controller.signal.aborted || expired()) {
          lose();
          throw new LeaseLostError({ leaseKey: key, generation });
        }
        // The database restarting or unreachable: wait for it while the lease can still be ours (until the
        // deadline by this process's monotonic clock; after it another owner may have it by now).
        const rows = await retryOnConnectionFailure(
          () =>
            this.database.query(`SELECT 1 FROM ${this.#table} WHERE lease_key = $1 AND generation = $2`, [
              key,
              generation,
            ]),
          Math.max(0, renewedAt + this.ttlMs - this.clock.now()),
        );
        // The deadline again after the read: the process may have been paused while it was out.
        if (rows.length === 0 || controller.signal.aborted || expired()) {
          lose();
          throw new LeaseLostError({ leaseKey: key, generation });
        }
      },
      renew,
      release: async () => {
        if (released) return;
        released = true;
        stop();
        await this.database.query(
          `UPDATE ${this.#table} SET expires_at = '-infinity' WHERE lease_key = $1 AND generation = $2`,
          [key, generation],
        );
      },
    };
  }
}

/** `new PostgresLeases(database, options)`. */
export function createPostgresLeases(database: PostgresDatabase, options?: PostgresLeasesOptions): PostgresLeases {
  return new PostgresLeases(database, options);
}
