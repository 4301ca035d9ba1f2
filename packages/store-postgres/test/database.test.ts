import { createServer } from 'node:net';
import { StoreError } from '@x/store';
import { describe, expect, it } from 'vitest';
import { connectPostgres } from '../src/database.js';
import { SchemaTooNewError } from '../src/errors/schema-too-new-error.js';
import { freshTables, sharedDatabaseUrl } from './helpers/shared-database.js';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('connectPostgres', () => {
  it('fails with a clear error naming the URL without its password when the database is unreachable', async () => {
    const port = await closedPort();
    const error = await connectPostgres({
      url: `postgres://alice:s3cret@127.0.0.1:${port}/app`,
      connectTimeoutMs: 2000,
    }).catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'postgres_unavailable' });
    const message = (error as Error).message;
    expect(message).toContain(`postgres://alice:***@127.0.0.1:${port}/app`);
    expect(message).not.toContain('s3cret');
  });

  it('migrates once: connecting again (or from many replicas at once) applies nothing twice', async () => {
    const first = await freshTables();
    expect(await first.migrate()).toBe(5);
    const again = await Promise.all([first.migrate(), first.migrate(), first.migrate()]);
    expect(again).toEqual([5, 5, 5]);
    const rows = await first.query<{ version: number }>(
      `SELECT version FROM ${first.tablePrefix}schema_version ORDER BY version`,
    );
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5]);
    await first.close();
  });

  it('refuses a schema written by a newer version instead of guessing', async () => {
    const database = await freshTables();
    await database.query(`INSERT INTO ${database.tablePrefix}schema_version (version) VALUES (99)`);
    const error = await database.migrate().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SchemaTooNewError);
    expect(error).toMatchObject({ found: 99, known: 5 });
    await database.close();
  });

  it('leaves the schema alone with migrate: false until migrate() is called', async () => {
    const prefix = 'lazy_';
    const lazy = await connectPostgres({ url: await sharedDatabaseUrl(), migrate: false, tablePrefix: prefix });
    const before = await lazy.query<{ name: string | null }>(`SELECT to_regclass('${prefix}events')::text AS name`);
    expect(before[0]?.name).toBeNull();
    expect(await lazy.migrate()).toBe(5);
    const after = await lazy.query<{ name: string | null }>(`SELECT to_regclass('${prefix}events')::text AS name`);
    expect(after[0]?.name).toBe(`${prefix}events`);
    await lazy.close();
  });
});
