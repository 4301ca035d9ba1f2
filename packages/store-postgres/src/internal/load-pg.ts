import { loadOptionalDependency } from './load-optional-dependency.js';

type Pg = typeof import('pg');

let loaded: Promise<Pg> | undefined;

/** node-postgres, imported on first use so that importing this package costs nothing more. */
export function loadPg(): Promise<Pg> {
  loaded ??= loadOptionalDependency('PostgreSQL storage (@x/store-postgres)', 'pg', () => import('pg')).then(
    (module) => ((module as unknown as { default?: Pg }).default ?? module) as Pg,
    (error: unknown) => {
      // Not kept: once the driver is installed, the next connection works without a restart.
      loaded = undefined;
      throw error;
    },
  );
  return loaded;
}
