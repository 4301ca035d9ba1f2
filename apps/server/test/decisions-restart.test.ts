// Decisions across a restart of the server, after a delete, and naming another conversation's action.
import { createHash } from 'node:crypto';
import { readDecision } from '@x/agent';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWaitingConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from './helpers.js';

const DECIDER = 'key-of-the-decider-0001';
const OTHER_DECIDER = 'key-of-the-decider-0002';
const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
const as = (key: string) => ({ 'x-session-api-key': key });
const config = { apiKeys: [DECIDER, OTHER_DECIDER] };

let server: TestServer | undefined;
afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

/** A conversation waiting for a decision on `echo <marker>`. */
async function waiting(test: TestServer, llm: ScriptedLLMServer, marker: string) {
  llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: `echo ${marker}` } }] });
  return createWaitingConversation(test, llm, as(DECIDER));
}

async function restart(test: TestServer): Promise<TestServer> {
  await test.built.close();
  server = await startTestServer({ dataDir: test.dataDir, llm: test.llm, config });
  return server;
}

async function answers(test: TestServer, id: string, actionId: string) {
  const managed = await test.built.manager.require(id);
  const events = await managed.log.range(0, managed.log.length);
  return events.filter(
    (event) =>
      (event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation') && event.action_id === actionId,
  );
}

async function finished(test: TestServer, id: string): Promise<void> {
  const managed = await test.built.manager.require(id);
  await waitFor(async () => (await managed.open()).state.execution_status === 'finished' && !managed.isRunning);
}

describe('a decision after a restart of the server', () => {
  it('approves: the action runs exactly once; an approval by someone else after it is 409', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const { id, actionId } = await waiting(server, llm, 'restart-approve-marker');
    const after = await restart(server);
    llm.push(finishReply('done'));
    const approve = { decisions: [{ action_id: actionId, decision: { kind: 'approve' } }] };
    const path = `/api/conversations/${id}/decisions`;
    expect((await after.call('POST', path, approve, as(DECIDER))).status).toBe(200);
    await finished(after, id);
    const late = await after.call('POST', path, approve, as(OTHER_DECIDER));
    expect(late.status).toBe(409);
    expect(JSON.stringify(late.json)).toContain(principal(DECIDER));
    const again = await restart(after);
    expect((await again.call('POST', `/api/conversations/${id}/run`, undefined, as(DECIDER))).status).toBe(200);
    await finished(again, id);
    const answered = await answers(again, id, actionId);
    expect(answered.map((event) => event.kind)).toEqual(['ObservationEvent']);
    expect(JSON.stringify(answered[0])).toContain('restart-approve-marker');
  }, 120_000);

  it('rejects through respond_to_confirmation: the UserRejectObservation with the reason, recorded as the caller', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const { id, actionId } = await waiting(server, llm, 'restart-reject-marker');
    const after = await restart(server);
    const reject = { accept: false, reason: 'not after a restart' };
    const path = `/api/conversations/${id}/events/respond_to_confirmation`;
    expect((await after.call('POST', path, reject, as(DECIDER))).status).toBe(200);
    expect(await answers(after, id, actionId)).toMatchObject([
      { kind: 'UserRejectObservation', action_id: actionId, rejection_reason: 'not after a restart' },
    ]);
    const conversation = await (await after.built.manager.require(id)).open();
    expect(await readDecision(conversation.store, conversation.directory, actionId)).toMatchObject({
      principal: principal(DECIDER),
      decision: { kind: 'deny', reason: 'not after a restart' },
    });
  }, 120_000);
});

describe('a decision that names no pending action of the conversation', () => {
  it("for another conversation's action: 409 action_not_pending, nothing recorded in either", async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const one = await waiting(server, llm, 'first-marker');
    const two = await waiting(server, llm, 'second-marker');
    const approve = { decisions: [{ action_id: two.actionId, decision: { kind: 'approve' } }] };
    const refused = await server.call('POST', `/api/conversations/${one.id}/decisions`, approve, as(DECIDER));
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.json)).toContain('action_not_pending');
    for (const { id, actionId } of [one, two]) {
      const conversation = await (await server.built.manager.require(id)).open();
      expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
      expect(await readDecision(conversation.store, conversation.directory, one.actionId)).toBeUndefined();
      expect(await readDecision(conversation.store, conversation.directory, two.actionId)).toBeUndefined();
      expect(await answers(server, id, actionId)).toEqual([]);
    }
  }, 120_000);

  it('of a deleted conversation: 404, and nothing runs', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const { id, actionId } = await waiting(server, llm, 'deleted-marker');
    const requests = llm.requests.length;
    expect((await server.call('DELETE', `/api/conversations/${id}`, undefined, as(DECIDER))).status).toBe(200);
    const approve = { decisions: [{ action_id: actionId, decision: { kind: 'approve' } }] };
    const late = await server.call('POST', `/api/conversations/${id}/decisions`, approve, as(DECIDER));
    expect(late.status).toBe(404);
    const accept = await server.call(
      'POST',
      `/api/conversations/${id}/events/respond_to_confirmation`,
      { accept: true },
      as(DECIDER),
    );
    expect(accept.status).toBe(404);
    expect(llm.requests.length).toBe(requests);
    expect(await server.built.manager.get(id)).toBeUndefined();
  }, 120_000);
});

describe('the same approval again once its action ran (a client retrying)', () => {
  it('is answered without starting another run: nothing is appended, the model is not called', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const { id } = await waiting(server, llm, 'retried-marker');
    const managed = await server.built.manager.require(id);
    const [action] = await (await managed.open()).pendingActions();
    llm.push(finishReply('done'));
    const approve = { decisions: [{ action_id: action!.id, decision: { kind: 'approve' } }] };
    const path = `/api/conversations/${id}/decisions`;
    expect((await server.call('POST', path, approve, as(DECIDER))).status).toBe(200);
    await finished(server, id);
    const length = managed.log.length;
    const requests = llm.requests.length;
    const retried = await server.call('POST', path, approve, as(DECIDER));
    expect(retried.status).toBe(200);
    await waitFor(async () => !managed.isRunning);
    expect(managed.log.length).toBe(length);
    expect(llm.requests.length).toBe(requests);
  }, 120_000);
});

describe('the same decision again on an idle conversation (a client retrying)', () => {
  /** Decides once (the run it starts ends `finished`), then a message without a run makes the conversation idle. */
  async function decidedThenIdle(decision: Record<string, unknown>) {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const { id, actionId } = await waiting(server, llm, 'idle-retry-marker');
    const managed = await server.built.manager.require(id);
    llm.push(finishReply('done'));
    const body = { decisions: [{ action_id: actionId, decision }] };
    const path = `/api/conversations/${id}/decisions`;
    expect((await server.call('POST', path, body, as(DECIDER))).status).toBe(200);
    await finished(server, id);
    const message = { role: 'user', content: [{ type: 'text', text: 'a question for later' }], run: false };
    expect((await server.call('POST', `/api/conversations/${id}/events`, message, as(DECIDER))).status).toBe(200);
    expect((await managed.open()).state.execution_status).toBe('idle');
    return { llm, id, actionId, managed, path, body };
  }

  for (const decision of [{ kind: 'approve' }, { kind: 'deny', reason: 'not now' }]) {
    it(`${decision.kind}: starts no run (the model is not called, nothing is appended, nothing runs again)`, async () => {
      const { llm, id, actionId, managed, path, body } = await decidedThenIdle(decision);
      const length = managed.log.length;
      const requests = llm.requests.length;
      const retried = await server!.call('POST', path, body, as(DECIDER));
      expect(retried.status).toBe(200);
      expect(retried.json).toEqual({ decisions: [] });
      await waitFor(async () => !managed.isRunning);
      expect(managed.log.length).toBe(length);
      expect(llm.requests.length).toBe(requests);
      expect((await managed.open()).state.execution_status).toBe('idle');
      const answered = await answers(server!, id, actionId);
      expect(answered.map((event) => event.kind)).toEqual([
        decision.kind === 'approve' ? 'ObservationEvent' : 'UserRejectObservation',
      ]);
    }, 120_000);
  }

  it('a denial no run has seen yet (the first request asked for none) is answered by the retry’s run, once', async () => {
    const llm = await startScriptedLLMServer([]);
    server = await startTestServer({ llm, config });
    const { id, actionId } = await waiting(server, llm, 'unseen-denial-marker');
    const managed = await server.built.manager.require(id);
    const path = `/api/conversations/${id}/decisions`;
    const deny = { action_id: actionId, decision: { kind: 'deny', reason: 'not now' } };
    expect((await server.call('POST', path, { decisions: [deny], run: false }, as(DECIDER))).status).toBe(200);
    expect((await managed.open()).state.execution_status).toBe('idle');
    const requests = llm.requests.length;
    llm.push(finishReply('understood'));
    expect((await server.call('POST', path, { decisions: [deny] }, as(DECIDER))).status).toBe(200);
    await finished(server, id);
    expect(llm.requests.length).toBe(requests + 1);
    expect((await answers(server, id, actionId)).map((event) => event.kind)).toEqual(['UserRejectObservation']);
  }, 120_000);
});
