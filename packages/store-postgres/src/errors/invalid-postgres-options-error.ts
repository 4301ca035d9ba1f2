import { PostgresStoreError } from '../errors.js';

/**
 * An option given to this package (a connection, an event log's append, leases, the conversation index) that is out
 * of its range or not one it knows: refused where it is given, typed as this package's errors are, so a caller tells
 * a bad option from a failing database by `code` (not by a plain `RangeError`). `@x/store`'s counterpart is
 * `InvalidStoreOptionsError`.
 */
export class InvalidPostgresOptionsError extends PostgresStoreError {
  declare readonly code: 'invalid_postgres_options';
  /** The option that was wrong. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super('invalid_postgres_options', `Invalid @x/store-postgres option '${option}': ${problem}`);
    this.option = option;
  }
}
