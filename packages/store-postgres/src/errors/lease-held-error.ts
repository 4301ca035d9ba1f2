import { PostgresStoreError } from '../errors.js';

/** The lease is held by another live owner (its expiry, by the database clock, is in the future). */
export class LeaseHeldError extends PostgresStoreError {
  declare readonly code: 'lease_held';
  readonly leaseKey: string;
  readonly owner: string;

  constructor(options: { leaseKey: string; owner: string }) {
    super(
      'lease_held',
      `The lease '${options.leaseKey}' is held by '${options.owner}'; it is released when that owner ends or stops renewing it.`,
    );
    this.leaseKey = options.leaseKey;
    this.owner = options.owner;
  }
}
