import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileStore } from '@x/store';
import {
  connectPostgres,
  createPostgresFileStore,
  type PostgresDatabase,
  PostgresEventLog,
  PostgresLeases,
} from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  ConversationAlreadyRunningError,
  type ConversationOptions,
  createOfflineLLM,
} from '../src/index.js';
import { stallingTool } from './support/stalling-tool.js';

// Two replicas of one conversation on PostgreSQL (events, files and leases in the database, one pool each). The idle
// one holds no lease, yet writes base_state.json when it closes and x_budget.json when its budget is set: it takes
// the lease for those writes (the database answers at once whether another replica holds it), so it never writes
// an older state over the newer owner's.

let server: PostgresServer;
let testDatabase: TestDatabase;
const connections: PostgresDatabase[] = [];
let dir: string;
beforeAll(async () => {
  server = await startPostgresServer();
  testDatabase = await createTestDatabase(server.url);
});
afterAll(async () => {
  await testDatabase?.drop();
  await server?.stop();
});
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** One replica's options: its own pool, and on it the files, the leases and the event log. */
async function replica(owner: string, agent: Agent): Promise<{ options: ConversationOptions; store: FileStore }> {
  const database = await connectPostgres({ url: testDatabase.url });
  connections.push(database);
  const store = createPostgresFileStore(database);
  return {
    store,
    options: {
      agent,
      workspace: dir,
      store,
      leases: new PostgresLeases(database, { owner, ttlMs: 60_000 }),
      openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
    },
  };
}

function answering(): Agent {
  return new Agent({ llm: createOfflineLLM({ script: () => ({ content: 'done' }) }), tools: [] });
}

/** How many events the base_state.json text covers. */
function covered(text: string): number {
  return JSON.parse(text).agent_state.x_state.event_count;
}

describe('an idle replica of a conversation on PostgreSQL', () => {
  it('folds what the newer owner appended before its close() writes base_state.json', async () => {
    dir = await mkdtemp(join(tmpdir(), 'x-pg-idle-state-'));
    const { options: optionsA } = await replica('a', answering());
    const { options: optionsB, store } = await replica('b', answering());
    const a = await Conversation.create(optionsA);
    await a.sendMessage('first');
    await a.run();
    const b = await Conversation.resume(a.id, optionsB);
    await b.sendMessage('second');
    await b.run();
    const path = `${b.directory}/base_state.json`;
    const byB = covered(await store.read(path));
    expect(byB).toBeGreaterThan(a.state.event_count);

    await a.close();
    expect(covered(await store.read(path))).toBe(byB);
    await b.close();
  });

  it('writes no base_state.json while another replica runs, and refuses setBudget with ConversationAlreadyRunningError', async () => {
    dir = await mkdtemp(join(tmpdir(), 'x-pg-idle-state-'));
    const stall = stallingTool();
    let calls = 0;
    const stallsOnce = new Agent({
      llm: createOfflineLLM({
        script: () => (calls++ === 0 ? { toolCalls: [{ name: 'stall', arguments: {} }] } : { content: 'done' }),
      }),
      tools: [stall.tool],
    });
    const { options: optionsA } = await replica('a', stallsOnce);
    const { options: optionsB, store } = await replica('b', stallsOnce);
    const a = await Conversation.create(optionsA);
    const b = await Conversation.resume(a.id, optionsB);
    await b.sendMessage('go');
    const runOnB = b.run();
    await stall.started;
    const path = `${b.directory}/base_state.json`;
    const before = await store.read(path);

    await a.sendMessage('meanwhile');
    expect(a.state.event_count).toBeGreaterThan(covered(before));
    expect(await store.read(path)).toBe(before);
    const refused = await a.setBudget(5).catch((caught: unknown) => caught);
    expect(ConversationAlreadyRunningError.isInstance(refused)).toBe(true);
    expect(await store.exists(`${b.directory}/x_budget.json`)).toBe(false);

    stall.release();
    expect((await runOnB).status).toBe('finished');
    await a.setBudget(5);
    expect(JSON.parse(await store.read(`${b.directory}/x_budget.json`))).toMatchObject({ max_usd: 5 });
    await b.close();
    await a.close();
  });
});
