import { StoreError } from '../errors.js';

/** A lease is held by another live owner; `wait` (where offered) waits for it instead. */
export class LeaseHeldError extends StoreError {
  declare readonly code: 'lease_held';
  readonly leaseKey: string;
  readonly owner: string;

  constructor(options: { leaseKey: string; owner: string }) {
    super(
      'lease_held',
      `The lease '${options.leaseKey}' is held by '${options.owner}'; it is free once that owner releases it or stops renewing it.`,
    );
    this.leaseKey = options.leaseKey;
    this.owner = options.owner;
  }
}
