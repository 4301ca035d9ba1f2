// A fork taken while an action waits for a decision carries that action still waiting, in the fork's own queue:
// whoever forks cannot have it run without a decider's decision by running the fork.
import { createHash } from 'node:crypto';
import { readDecision } from '@x/agent';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRequest,
  createWaitingConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from './helpers.js';

const DECIDER = 'key-of-the-decider-0001';
const OTHER = 'key-of-someone-else-0002';
const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
const as = (key: string) => ({ 'x-session-api-key': key });

let server: TestServer | undefined;
afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

async function start() {
  const llm = await startScriptedLLMServer([
    { toolCalls: [{ name: 'terminal', arguments: { command: 'echo fork-marker-ran' } }] },
  ]);
  server = await startTestServer({
    llm,
    config: { apiKeys: [DECIDER, OTHER], approvalDeciders: [principal(DECIDER)] },
  });
  const { id, actionId } = await createWaitingConversation(server, llm, as(DECIDER));
  return { server, llm, id, actionId };
}

async function ran(test: TestServer, id: string): Promise<boolean> {
  const managed = await test.built.manager.require(id);
  const events = await managed.log.range(0, managed.log.length);
  return events.some((event) => event.kind === 'ObservationEvent' && JSON.stringify(event).includes('fork-marker-ran'));
}

describe('POST /api/conversations/{id}/fork while an action waits for a decision', () => {
  it('gives a fork that waits with the action: a non-decider cannot run it, a decider decides it there alone', async () => {
    const { server: test, llm, id, actionId } = await start();
    const forked = await test.call('POST', `/api/conversations/${id}/fork`, {}, as(OTHER));
    expect(forked.status).toBe(201);
    const forkId = (forked.json as { id: string; execution_status: string }).id;
    expect((forked.json as { execution_status: string }).execution_status).toBe('waiting_for_confirmation');
    const info = await test.call('GET', `/api/conversations/${forkId}`, undefined, as(OTHER));
    expect((info.json as { execution_status: string }).execution_status).toBe('waiting_for_confirmation');

    // Running the waiting fork would approve the action: a caller outside approvalDeciders is refused.
    expect((await test.call('POST', `/api/conversations/${forkId}/run`, undefined, as(OTHER))).status).toBe(403);
    const message = { role: 'user', content: [{ type: 'text', text: 'go on' }], run: true };
    expect((await test.call('POST', `/api/conversations/${forkId}/events`, message, as(OTHER))).status).toBe(403);
    expect(await ran(test, forkId)).toBe(false);

    llm.push(finishReply('not run'));
    const deny = { decisions: [{ action_id: actionId, decision: { kind: 'deny', reason: 'not in the fork' } }] };
    expect((await test.call('POST', `/api/conversations/${forkId}/decisions`, deny, as(DECIDER))).status).toBe(200);
    const fork = await test.built.manager.require(forkId);
    await waitFor(async () => (await fork.open()).state.execution_status === 'finished' && !fork.isRunning);
    expect(await ran(test, forkId)).toBe(false);
    // The source still waits for its own decision.
    const source = await (await test.built.manager.require(id)).open();
    expect(source.state.execution_status).toBe('waiting_for_confirmation');
    expect(await readDecision(source.store, source.directory, actionId)).toBeUndefined();
    expect(await ran(test, id)).toBe(false);
  }, 120_000);

  it('waits at from_event_id = the action, and stays waiting after a restart of the server', async () => {
    const { server: test, id, actionId } = await start();
    const forked = await test.call('POST', `/api/conversations/${id}/fork`, { from_event_id: actionId }, as(OTHER));
    expect(forked.status).toBe(201);
    const forkId = (forked.json as { id: string }).id;
    expect((forked.json as { execution_status: string }).execution_status).toBe('waiting_for_confirmation');
    const dataDir = test.dataDir;
    await test.built.close();
    server = await startTestServer({
      dataDir,
      llm: test.llm,
      config: { apiKeys: [DECIDER, OTHER], approvalDeciders: [principal(DECIDER)] },
    });
    const info = await server.call('GET', `/api/conversations/${forkId}`, undefined, as(OTHER));
    expect((info.json as { execution_status: string }).execution_status).toBe('waiting_for_confirmation');
    expect((await server.call('POST', `/api/conversations/${forkId}/run`, undefined, as(OTHER))).status).toBe(403);
    expect(await ran(server, forkId)).toBe(false);
  }, 120_000);
});

describe('POST /api/conversations/{id}/fork of a conversation under a confirmation policy', () => {
  it('keeps the policy in the fork (as the reference keeps the stored one): its new actions wait for a decider', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({
      llm,
      config: { apiKeys: [DECIDER, OTHER], approvalDeciders: [principal(DECIDER)] },
    });
    const created = await server.call(
      'POST',
      '/api/conversations',
      { ...createRequest(llm), confirmation_policy: { kind: 'AlwaysConfirm' } },
      as(DECIDER),
    );
    const id = (created.json as { id: string }).id;
    const forked = await server.call('POST', `/api/conversations/${id}/fork`, {}, as(OTHER));
    expect(forked.status).toBe(201);
    const forkId = (forked.json as { id: string }).id;
    expect((forked.json as { confirmation_policy: unknown }).confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });

    llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo fork-marker-ran' } }] });
    const message = { role: 'user', content: [{ type: 'text', text: 'do it' }], run: true };
    expect((await server.call('POST', `/api/conversations/${forkId}/events`, message, as(OTHER))).status).toBe(200);
    const fork = await server.built.manager.require(forkId);
    await waitFor(async () => !fork.isRunning && (await fork.open()).state.execution_status !== 'running');
    expect((await fork.open()).state.execution_status).toBe('waiting_for_confirmation');
    expect(await ran(server, forkId)).toBe(false);
    expect((await server.call('POST', `/api/conversations/${forkId}/run`, undefined, as(OTHER))).status).toBe(403);
    expect(await ran(server, forkId)).toBe(false);
  }, 120_000);
});

describe('POST /api/conversations/{id}/navigate back onto an action waiting for a decision', () => {
  it('waits again: a caller outside approvalDeciders cannot run it', async () => {
    const { server: test, llm, id, actionId } = await start();
    const managed = await test.built.manager.require(id);
    const events = await managed.log.range(0, managed.log.length);
    const message = events.find((event) => event.kind === 'MessageEvent' && event.source === 'user')!;
    const navigate = (eventId: string) =>
      test.call('POST', `/api/conversations/${id}/navigate`, { event_id: eventId }, as(OTHER));
    expect(((await navigate(message.id)).json as { execution_status: string }).execution_status).toBe('idle');
    llm.push(finishReply('nothing to do here'));
    expect((await test.call('POST', `/api/conversations/${id}/run`, undefined, as(OTHER))).status).toBe(200);
    await waitFor(async () => (await managed.open()).state.execution_status === 'finished' && !managed.isRunning);
    const back = await navigate(actionId);
    expect((back.json as { execution_status: string }).execution_status).toBe('waiting_for_confirmation');
    expect((await test.call('POST', `/api/conversations/${id}/run`, undefined, as(OTHER))).status).toBe(403);
    expect(await ran(test, id)).toBe(false);
  }, 120_000);
});
