import { afterAll, inject } from 'vitest';
import { connectPostgres, type PostgresDatabase } from '../../src/database.js';
import { createTestDatabase, type TestDatabase } from '../../src/testing/test-database.js';

let shared: Promise<TestDatabase> | undefined;
let tables = 0;

/**
 * A connection to this test file's database with tables of its own (a fresh table prefix), so
 * tests never see each other's rows without paying for a database each. Close it when done.
 */
export async function freshTables(): Promise<PostgresDatabase> {
  shared ??= createTestDatabase(inject('postgresUrl'));
  const database = await shared;
  return database.connect({ tablePrefix: `t${++tables}_${process.pid}_` });
}

/**
 * `count` connections (separate pools, as separate processes would have) to one set of fresh tables:
 * writers that share a log and nothing else. Close them when done.
 */
export async function freshTablesShared(count: number, maxConnections = 2): Promise<PostgresDatabase[]> {
  const url = await sharedDatabaseUrl();
  const tablePrefix = `t${++tables}_${process.pid}_`;
  const connections: PostgresDatabase[] = [];
  for (let index = 0; index < count; index++)
    connections.push(await connectPostgres({ url, tablePrefix, maxConnections }));
  return connections;
}

afterAll(async () => {
  await (await shared)?.drop();
});

/** URL of this test file's database (created on first use). */
export async function sharedDatabaseUrl(): Promise<string> {
  shared ??= createTestDatabase(inject('postgresUrl'));
  return (await shared).url;
}
