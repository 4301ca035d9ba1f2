/** A held lease: one owner at a time, with a generation (fencing token) that grows with every owner. */
export interface Lease {
  readonly key: string;
  /** Monotonically increasing across owners of `key`: the fencing token every fenced write carries. */
  readonly generation: number;
  readonly owner: string;
  /**
   * How the previous owner ended: `none` (first owner), `released`, or `expired`: it stopped
   * renewing without releasing (killed, machine lost), so work it had in flight may be half done.
   */
  readonly previous: 'none' | 'released' | 'expired';
  /**
   * Aborts when the lease is lost: another owner took it over, its renewals failed until the next one would come
   * too late to keep another owner from taking it, or its deadline (a ttl after its last successful renewal
   * began, on the lease's clock) passed, even with a renewal still out.
   */
  readonly signal: AbortSignal;
  /**
   * Throws `LeaseLostError` when another owner has taken the lease over, its deadline has passed (whether or not
   * a renewal returned: the process may have been paused), the signal aborted, or it was released.
   */
  assertHeld(): Promise<void>;
  /** Renews now; false when the lease is no longer held. */
  renew(): Promise<boolean>;
  /** Gives the lease up at once: the next owner can take it without waiting for it to expire. */
  release(): Promise<void>;
}

/** Options for `Leases.acquire`. */
export interface AcquireLeaseOptions {
  /** Wait up to this many ms for a held lease to be released or expire, instead of failing at once. */
  waitMs?: number;
  signal?: AbortSignal;
}

/** Hands out leases; `LeaseHeldError` when another live owner holds one (after `waitMs`). */
export interface Leases {
  readonly owner: string;
  acquire(key: string, options?: AcquireLeaseOptions): Promise<Lease>;
}
