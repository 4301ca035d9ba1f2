import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createManualClock } from '@x/store/testing';
import { connectPostgres, createPostgresFileStore, PostgresEventLog, PostgresLeases } from '@x/store-postgres';
import {
  countingDatabase,
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECKPOINT_EVERY_STEPS } from '../src/conversation/run-loop.js';
import { Agent, Conversation, createOfflineLLM, defineTool, type LLM } from '../src/index.js';

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

/** The offline LLM, noting the commits made so far each time the model is asked (the start of a step). */
function countingLLM(steps: number, commits: () => number, atAsk: number[]): LLM {
  const inner = createOfflineLLM({
    script: (_request, turn) =>
      turn >= steps
        ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
        : { toolCalls: [{ name: 'run_command', arguments: { command: `echo ${turn}` } }] },
  });
  return {
    model: inner.model,
    usageId: inner.usageId,
    offline: true,
    complete(request) {
      atAsk.push(commits());
      return inner.complete(request);
    },
  };
}

describe('an agent step on PostgreSQL as the store-postgres README deploys it', () => {
  it('costs two commits: stats update and action in one fenced batch, then the observation', async () => {
    const steps = CHECKPOINT_EVERY_STEPS + 5;
    const connected = await connectPostgres({ url: testDatabase.url });
    const { database, count } = countingDatabase(connected);
    const dir = await mkdtemp(join(tmpdir(), 'x-pg-commits-'));
    const atAsk: number[] = [];
    try {
      const conversation = await Conversation.create({
        agent: new Agent({ llm: countingLLM(steps, () => count.commits, atAsk), tools: [tool] }),
        workspace: dir,
        store: createPostgresFileStore(database),
        openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
        // A manual clock: no renewal runs on a timer mid-step, so the count is the steps' own (renewals are
        // every third of the ttl, never per append).
        leases: new PostgresLeases(database, { clock: createManualClock() }),
        maxIterationsPerRun: steps * 2 + 10,
      });
      await conversation.sendMessage('count the commits');
      const result = await conversation.run();
      expect(result.status).toBe('finished');
      await conversation.close();

      // Step n (1-based) runs from the n-th ask to the next; the run checkpoints after every CHECKPOINT_EVERY_STEPS.
      const perStep = atAsk.slice(1).map((commits, n) => commits - atAsk[n]!);
      expect(perStep).toHaveLength(steps);
      const checkpointStep = CHECKPOINT_EVERY_STEPS - 1;
      perStep.forEach((commits, n) => {
        if (n !== checkpointStep) expect({ step: n + 1, commits }).toEqual({ step: n + 1, commits: 2 });
      });
      // The checkpoint: base_state.json and the view checkpoint, one upsert each.
      expect(perStep[checkpointStep]).toBe(4);
      // Every durable write of a step is one of its two fenced inserts into the events table.
      const events = await PostgresEventLog.open(connected, { logId: conversation.id });
      const bodies = (await events.range(0)).map((event) => event.kind);
      expect(bodies.filter((kind) => kind === 'ConversationStateUpdateEvent').length).toBeGreaterThanOrEqual(steps);
    } finally {
      await connected.close();
      await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
