import { PostgresStoreError } from '../errors.js';

/** The database was migrated by a newer version of this package than the one running. */
export class SchemaTooNewError extends PostgresStoreError {
  declare readonly code: 'schema_too_new';
  readonly found: number;
  readonly known: number;

  constructor(options: { found: number; known: number; location: string }) {
    super(
      'schema_too_new',
      `The schema at ${options.location} is version ${options.found}, newer than the ${options.known} this version of @x/store-postgres knows; upgrade it.`,
    );
    this.found = options.found;
    this.known = options.known;
  }
}
