import { StoreError } from '../errors.js';

/**
 * A write carried a lease generation (fencing token) that is no longer current: another owner took
 * the lease over. Nothing was written.
 */
export class LeaseLostError extends StoreError {
  declare readonly code: 'lease_lost';
  readonly leaseKey: string;
  readonly generation: number;

  constructor(options: { leaseKey: string; generation: number }) {
    super(
      'lease_lost',
      `The lease '${options.leaseKey}' at generation ${options.generation} is no longer held: another owner took it over, so this write was refused.`,
    );
    this.leaseKey = options.leaseKey;
    this.generation = options.generation;
  }
}
