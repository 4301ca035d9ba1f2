import type { PostgresDatabase } from '../database.js';
import { SchemaTooNewError } from '../errors/schema-too-new-error.js';
import { migrations } from './schema.js';

/** Any constant: the advisory lock that makes concurrent starts migrate one at a time. */
const MIGRATION_LOCK = 727_274_001;

/**
 * Brings the schema up to this version's: creates the version table, then applies each missing
 * migration with its version row in one transaction, under an advisory lock so replicas starting
 * together do not race. A database migrated by a newer version is refused (`SchemaTooNewError`).
 */
export async function migrate(database: PostgresDatabase): Promise<number> {
  const prefix = database.tablePrefix;
  const steps = migrations(prefix);
  return database.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${prefix}schema_version (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const result = await client.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${prefix}schema_version`,
    );
    const current = result.rows[0]?.version ?? 0;
    if (current > steps.length)
      throw new SchemaTooNewError({ found: current, known: steps.length, location: database.location });
    for (let version = current + 1; version <= steps.length; version++) {
      await client.query(steps[version - 1]!);
      await client.query(`INSERT INTO ${prefix}schema_version (version) VALUES ($1)`, [version]);
    }
    return steps.length;
  });
}
