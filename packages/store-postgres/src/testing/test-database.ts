import { randomUUID } from 'node:crypto';
import { type ConnectPostgresOptions, connectPostgres, type PostgresDatabase } from '../database.js';
import { loadPg } from '../internal/load-pg.js';

export interface TestDatabase {
  /** URL of the fresh database. */
  readonly url: string;
  /** Connects to it (migrated unless `migrate: false`); every connection is closed by `drop`. */
  connect(options?: Partial<ConnectPostgresOptions>): Promise<PostgresDatabase>;
  /** Closes the connections made by `connect` and drops the database. */
  drop(): Promise<void>;
}

/** Creates an empty database named `x_test_<random>` on the server at `serverUrl`, so tests never share tables. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `x_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const pg = await loadPg();
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connections: PostgresDatabase[] = [];
  return {
    url: url.toString(),
    async connect(options = {}) {
      const database = await connectPostgres({ url: url.toString(), maxConnections: 4, ...options });
      connections.push(database);
      return database;
    },
    async drop() {
      for (const database of connections.splice(0)) await database.close().catch(() => undefined);
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
