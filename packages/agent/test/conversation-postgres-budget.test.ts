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
import { Agent, Conversation, type ConversationOptions, createOpenAILLM, defaultTools } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let server: PostgresServer;
let testDatabase: TestDatabase;
let harness: Harness;
beforeAll(async () => {
  server = await startPostgresServer();
  testDatabase = await createTestDatabase(server.url);
});
afterAll(async () => {
  await testDatabase?.drop();
  await server?.stop();
});
afterEach(async () => {
  await harness?.close();
});

function replicaOptions(database: PostgresDatabase, owner: string): Partial<ConversationOptions> {
  return {
    store: createPostgresFileStore(database),
    openEventLog: ({ conversationId }) =>
      PostgresEventLog.open(database, { logId: conversationId, pollIntervalMs: 50 }),
    leases: new PostgresLeases(database, { owner, ttlMs: 60_000 }),
  };
}

// $1000 per million tokens: each scripted reply (15 tokens) costs $0.015; the next call is estimated at $0.015.
function pricedAgent(h: Harness): Agent {
  const llm = createOpenAILLM({
    model: 'scripted',
    baseURL: h.server.baseURL,
    apiKey: 'sk-test',
    maxRetries: 0,
    pricing: { inputPerMillion: 1000, outputPerMillion: 1000 },
  });
  return new Agent({ llm, tools: defaultTools() });
}

const think = { toolCalls: [{ name: 'think', arguments: { thought: 'hmm' } }] };

describe('a money budget on PostgreSQL, across replicas', () => {
  it('holds on the other replica (spend from the shared log), and continues there once raised', async () => {
    harness = await startHarness([
      think,
      think,
      think,
      { toolCalls: [{ name: 'finish', arguments: { message: 'ok' } }] },
    ]);
    const a = await connectPostgres({ url: testDatabase.url });
    const b = await connectPostgres({ url: testDatabase.url });
    try {
      const { conversation: onA } = await harness.conversation({
        agent: pricedAgent(harness),
        budget: 0.04,
        ...replicaOptions(a, 'replica-a'),
      });
      await onA.sendMessage('think');
      expect((await onA.run()).status).toBe('error');
      expect(harness.server.requests).toHaveLength(2);

      const onB = await Conversation.resume(onA.id, {
        agent: pricedAgent(harness),
        workspace: harness.workspace,
        ...replicaOptions(b, 'replica-b'),
      });
      expect((await onB.budgetStatus()).budget).toEqual({ maxUsd: 0.04, allowUnknownCost: false });
      expect((await onB.run()).stoppedBeforeModelCall).toContain('accumulated cost $0.0300');
      expect(harness.server.requests).toHaveLength(2);

      await onB.setBudget(1);
      expect((await onB.run()).status).toBe('finished');
      expect(harness.server.requests).toHaveLength(4);
      await onA.catchUp();
      expect((await onA.budgetStatus()).spentUsd).toBeCloseTo(0.06);
      await onA.close();
      await onB.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
