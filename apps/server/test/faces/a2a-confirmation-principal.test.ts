// Who answered (refused or approved) a pending action through A2A, as the decision record and `/decisions` keep it: the caller's session
// key principal, as the REST route, MCP and A2A's own cancel record it, never the anonymous default `user`.
import { createHash } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory, createAuthenticatingFetchWithRetry, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { readDecision } from '@x/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

const KEY = 'a2a-refusing-key';
const principal = `api-key:${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`;
let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture({ apiKeys: [KEY] });
});
afterAll(async () => {
  await fixture.stop();
});

async function keyedClient() {
  const fetchImpl = createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ 'X-Session-API-Key': KEY }),
    shouldRetryWithHeaders: async () => undefined,
  });
  return new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] }).createFromUrl(
    fixture.server.url,
  );
}

/** The decisions recorded on the task's pending actions, after `answer` was sent as its next message. */
async function refusedWith(answer: (taskId: string) => Parameters<typeof send>[0]) {
  const { server } = fixture;
  const client = await keyedClient();
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] });
  const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
  const waiting = (await client.sendMessage(
    send({ ...userMessage([textPart('Clean the build')]), metadata: { conversation } }),
  )) as Task;
  expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const managed = await server.built.manager.require(waiting.id);
  const pending = await (await managed.open()).pendingActions();
  server.llm.push(finishReply('left it'));
  await client.sendMessage(send(answer(waiting.id)));
  const open = await managed.open();
  return Promise.all(pending.map((action) => readDecision(open.store, open.directory, action.id)));
}

describe('an A2A refusal of a pending action, driven by @a2a-js/sdk', () => {
  it('is recorded with the principal of the key that sent a plain-text answer', async () => {
    const decisions = await refusedWith((taskId) => userMessage([textPart('not now')], { taskId }));
    expect(decisions).toEqual([expect.objectContaining({ principal, decision: { kind: 'deny', reason: 'not now' } })]);
  });

  it('is recorded with the principal of the key that sent metadata.confirmation', async () => {
    const decisions = await refusedWith((taskId) => ({
      ...userMessage([textPart('')], { taskId }),
      metadata: { confirmation: { approved: false, reason: 'too risky' } },
    }));
    expect(decisions).toEqual([
      expect.objectContaining({ principal, decision: { kind: 'deny', reason: 'too risky' } }),
    ]);
  });

  it('records an approval (metadata.confirmation.approved) with the principal of the key, not as the run', async () => {
    const decisions = await refusedWith((taskId) => ({
      ...userMessage([textPart('')], { taskId }),
      metadata: { confirmation: { approved: true } },
    }));
    expect(decisions).toEqual([expect.objectContaining({ principal, decision: { kind: 'approve' } })]);
  });
});
