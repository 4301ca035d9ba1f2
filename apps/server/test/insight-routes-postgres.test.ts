// The branches route (the viewer's tree graph) on replicas sharing PostgreSQL: a fork made on one replica is listed
// under its source on every replica, as with the fs backend (test/insight-routes.test.ts), from the conversations
// table's fork links rather than an in-process index.
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { connectPostgres } from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitForIdle,
} from './helpers.js';

let postgres: PostgresServer;
let database: TestDatabase;
let llm: ScriptedLLMServer;
let shared: string;
const dirs: string[] = [];
const replicas: TestServer[] = [];

beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await createTestDatabase(postgres.url);
  llm = await startScriptedLLMServer();
  shared = await tempDir();
  for (let index = 0; index < 2; index++) {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    replicas.push(
      await startTestServer({ dataDir, llm, config: { databaseUrl: database.url, workspaceRoot: shared } }),
    );
  }
}, 180_000);
afterAll(async () => {
  for (const replica of replicas) await replica.built.close();
  await llm?.close();
  for (const dir of [...dirs, shared]) await removeDir(dir);
  await database?.drop();
  await postgres?.stop();
});

type Branches = {
  segments: { id: string }[];
  forked_from_conversation_id: string | null;
  forks: { conversation_id: string; from_event_id: string | null; segment_id: string | null }[];
};

describe('the branches route with the PostgreSQL backend', () => {
  it('lists a fork under its source, at the segment of the event it was forked from, on every replica', async () => {
    const [a, b] = replicas as [TestServer, TestServer];
    llm.push(finishReply('Answer'));
    const created = await a.call(
      'POST',
      '/api/conversations',
      createRequest(llm, { initial_message: { content: 'fork source' }, workspace: { working_dir: shared } }),
    );
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    await waitForIdle(a, id);
    const events = await a.call('GET', `/api/conversations/${id}/events/search?limit=100`);
    const items = (events.json as { items: { id: string; kind: string; source: string }[] }).items;
    const userMessage = items.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(userMessage).toBeDefined();
    const fork = await a.call('POST', `/api/conversations/${id}/fork`, { from_event_id: userMessage?.id });
    expect(fork.status).toBe(201);
    const forkId = (fork.json as { id: string }).id;
    const whole = await a.call('POST', `/api/conversations/${id}/fork`, {});
    expect(whole.status).toBe(201);
    const wholeId = (whole.json as { id: string }).id;

    const expectForks = async (replica: TestServer) => {
      const branches = (await replica.call('GET', `/api/conversations/${id}/branches`)).json as Branches;
      expect(branches.forks).toEqual([
        { conversation_id: forkId, from_event_id: userMessage?.id, segment_id: branches.segments[0]?.id },
        { conversation_id: wholeId, from_event_id: null, segment_id: null },
      ]);
      const forkBranches = (await replica.call('GET', `/api/conversations/${forkId}/branches`)).json as Branches;
      expect(forkBranches).toMatchObject({ forked_from_conversation_id: id, forks: [] });
    };
    for (const replica of [a, b]) await expectForks(replica);

    // Rows written before the table kept fork links: a replica starting up fills them in from meta.json.
    const direct = await connectPostgres({ url: database.url });
    try {
      const table = `${direct.tablePrefix}conversations`;
      await direct.query(`UPDATE ${table} SET forked_from_conversation_id = NULL, forked_from_event_id = NULL`);
      const before = await direct.query<{ conversation_id: string; updated_at: string }>(
        `SELECT conversation_id, updated_at::text FROM ${table} ORDER BY conversation_id`,
      );
      const dataDir = await tempDir();
      dirs.push(dataDir);
      const late = await startTestServer({
        dataDir,
        llm,
        config: { databaseUrl: database.url, workspaceRoot: shared },
      });
      replicas.push(late);
      await expectForks(late);
      // Filling in a link is no change of the conversation: its update time (the listings' order) stays.
      expect(
        await direct.query(`SELECT conversation_id, updated_at::text FROM ${table} ORDER BY conversation_id`),
      ).toEqual(before);
    } finally {
      await direct.close();
    }
  });
});
