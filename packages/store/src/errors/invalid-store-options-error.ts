import { StoreError } from '../errors.js';

/**
 * A store was created with an option it does not know: refused at creation rather than read as the default (a
 * `durability: 'fsnyc'` from a config file must not quietly turn fsync off).
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
