import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Conversation, type ConversationOptions, createOfflineLLM, defineTool, type LLM } from '../src/index.js';

let server: PostgresServer;
let testDatabase: TestDatabase;
beforeAll(async () => {
  server = await startPostgresServer();
  testDatabase = await createTestDatabase(server.url);
});
afterAll(async () => {
  await testDatabase?.drop();
  await server?.stop();
});

const tool = defineTool({
  name: 'run_command',
  description: 'Returns its command.',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => ({ content: `ran ${command}` }),
});

function replicaOptions(
  database: PostgresDatabase,
  owner: string,
  workspace: string,
): Omit<ConversationOptions, 'agent'> {
  return {
    workspace,
    store: createPostgresFileStore(database),
    openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
    leases: new PostgresLeases(database, { owner, ttlMs: 60_000 }),
  };
}

const textOf = (request: unknown) => JSON.stringify(request);

/**
 * The step's stats update is held for its action and both go in one fenced insert (`fencesAppends`); a message
 * another replica appends while the model answers makes that insert conflict. The batch is then written after the
 * message, which the run folds and answers in its next step: nothing lost, nothing written twice.
 */
describe('a message another replica appends while the model answers, on PostgreSQL', () => {
  it('lands before the step’s held stats update and action, and the next step answers it', async () => {
    const a = await connectPostgres({ url: testDatabase.url });
    const b = await connectPostgres({ url: testDatabase.url });
    const workspace = await mkdtemp(join(tmpdir(), 'x-pg-mid-step-'));
    const requests: string[] = [];
    let sendFromB: (() => Promise<void>) | undefined;
    const inner = createOfflineLLM({
      script: (_request, turn) =>
        turn === 0
          ? { toolCalls: [{ name: 'run_command', arguments: { command: 'echo 0' } }] }
          : { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    });
    const llm: LLM = {
      model: inner.model,
      usageId: inner.usageId,
      offline: true,
      async complete(request) {
        requests.push(textOf(request.messages));
        const send = sendFromB;
        sendFromB = undefined;
        await send?.();
        return inner.complete(request);
      },
    };
    try {
      const onA = await Conversation.create({
        agent: new Agent({ llm, tools: [tool] }),
        ...replicaOptions(a, 'replica-a', workspace),
      });
      await onA.sendMessage('start');
      const onB = await Conversation.resume(onA.id, {
        agent: new Agent({ llm: inner, tools: [tool] }),
        ...replicaOptions(b, 'replica-b', workspace),
      });
      sendFromB = () => onB.sendMessage('also this, from B');
      expect((await onA.run()).status).toBe('finished');
      expect(requests).toHaveLength(2);
      expect(requests[0]).not.toContain('from B');
      expect(requests[1]).toContain('from B');

      const events: AnyEvent[] = [];
      const reader = await PostgresEventLog.open(a, { logId: onA.id });
      for (const event of await reader.range(0)) events.push(event);
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
      const kinds = events.map((event) => event.kind);
      const fromB = events.findIndex((event) => textOf(event).includes('from B'));
      const action = kinds.indexOf('ActionEvent');
      expect(fromB).toBeGreaterThan(0);
      expect(action).toBeGreaterThan(fromB);
      expect(kinds[action - 1]).toBe('ConversationStateUpdateEvent');
      expect(events.filter((event) => textOf(event).includes('from B'))).toHaveLength(1);
      expect(onA.state.event_count).toBe(events.length);
      await onA.close();
      await onB.close();
    } finally {
      await a.close();
      await b.close();
      await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
