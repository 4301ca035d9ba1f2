import { StoreError } from '@x/store';

/** The codes of `PostgresStoreError` and its subclasses. */
export type PostgresStoreErrorCode =
  | 'postgres_unavailable'
  | 'postgres_query_failed'
  | 'schema_too_new'
  | 'missing_dependency'
  | 'invalid_postgres_options';

/**
 * Base class of every error thrown by @x/store-postgres. It extends `StoreError`, so
 * `StoreError.isInstance(error)` matches these too; subclasses narrow `code`.
 */
export class PostgresStoreError extends StoreError {
  declare readonly code: PostgresStoreErrorCode;

  constructor(code: PostgresStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
