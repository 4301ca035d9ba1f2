import { StoreError } from '../errors.js';

/**
 * An option given to the store or one of its parts (a file store, an event log, its appends, leases) that it does
 * not know or that is out of its range: refused where it is given rather than read as the default (a
 * `durability: 'fsnyc'` from a config file must not quietly turn fsync off), and typed as this package's errors
 * are, so a caller tells a bad option from a failing store by `code` (not by a plain `RangeError`).
 */
export class InvalidStoreOptionsError extends StoreError {
  declare readonly code: 'invalid_store_options';
  /** The option that was wrong. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super('invalid_store_options', `Invalid store option '${option}': ${problem}`);
    this.option = option;
  }
}
