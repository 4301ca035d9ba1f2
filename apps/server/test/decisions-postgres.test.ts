import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
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
  for (let index = 0; index < 3; index++) {
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

describe('decisions on replicas sharing PostgreSQL', () => {
  it('two replicas get conflicting decisions at once: exactly one is recorded, the other is 409 decision_conflict', async () => {
    const [a, b, c] = replicas as [TestServer, TestServer, TestServer];
    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo contested' } }] });
    const id = await createConversation(a, {
      workspace: { working_dir: shared },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do it' }] },
    });
    const info = async () => (await a.call('GET', `/api/conversations/${id}`)).json as Record<string, unknown>;
    const managed = await a.built.manager.require(id);
    await waitFor(async () => (await info()).execution_status === 'waiting_for_confirmation' && !managed.isRunning);
    const [action] = await (await managed.open()).pendingActions();
    llm.push(finishReply('done'), finishReply('done'));
    const path = `/api/conversations/${id}/decisions`;
    const answers = await Promise.all([
      b.call('POST', path, { decisions: [{ action_id: action!.id, decision: { kind: 'approve' } }] }),
      c.call('POST', path, { decisions: [{ action_id: action!.id, decision: { kind: 'deny', reason: 'no' } }] }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, JSON.stringify(answers.map((answer) => answer.json))).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.status === 409)!;
    expect(loser.json).toMatchObject({ code: 'decision_conflict' });
    await waitFor(async () => (await info()).execution_status === 'finished', 60_000);
    const { items } = (await a.call('GET', `/api/conversations/${id}/events/search?limit=100`)).json as {
      items: { kind: string; tool_call_id?: string }[];
    };
    const answered = items.filter(
      (item) =>
        ['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent'].includes(item.kind) &&
        item.tool_call_id === action!.tool_call_id,
    );
    expect(answered).toHaveLength(1);
  }, 180_000);
});
