// A conversation whose row the conversations table lacks (written before the table existed, or by a version
// without it) is listed again once a replica starts: src/conversations/postgres-backend.ts gives it its row from
// its meta.json (status, title, times), so the SQL listing and count find it.
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { connectPostgres } from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer, tempDir } from './helpers.js';

let postgres: PostgresServer;
let database: TestDatabase;
let llm: ScriptedLLMServer;
const dirs: string[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await createTestDatabase(postgres.url);
  llm = await startScriptedLLMServer();
}, 180_000);
afterAll(async () => {
  for (const server of servers) await server.built.close();
  await llm?.close();
  for (const dir of dirs) await removeDir(dir);
  await database?.drop();
  await postgres?.stop();
});

async function startReplica(): Promise<TestServer> {
  const dataDir = await tempDir();
  dirs.push(dataDir);
  const server = await startTestServer({ dataDir, llm, config: { databaseUrl: database.url } });
  servers.push(server);
  return server;
}

type Page = { items: { id: string; title: string | null; execution_status: string }[] };

describe('conversations without a row in the conversations table', () => {
  it('get their row from meta.json when a replica starts, and are listed and counted again', async () => {
    const writer = await startReplica();
    const ids = [
      await createConversation(writer, { title: 'first' }),
      await createConversation(writer, { title: 'second' }),
    ];
    const listed = async (server: TestServer) =>
      ((await server.call('GET', '/api/conversations/search?sort_order=CREATED_AT')).json as Page).items.map((item) => [
        item.id,
        item.title,
        item.execution_status,
      ]);
    const expected = [
      [ids[0], 'first', 'idle'],
      [ids[1], 'second', 'idle'],
    ];
    expect(await listed(writer)).toEqual(expected);

    const direct = await connectPostgres({ url: database.url });
    try {
      await direct.query(`DELETE FROM ${direct.tablePrefix}conversations`);
    } finally {
      await direct.close();
    }
    expect((await writer.call('GET', '/api/conversations/count')).json).toBe(0);

    const late = await startReplica();
    expect(await listed(late)).toEqual(expected);
    expect((await late.call('GET', '/api/conversations/count?status=idle')).json).toBe(2);
    expect((await late.call('GET', '/api/conversations/count?q=SECOND')).json).toBe(1);
  }, 180_000);
});
