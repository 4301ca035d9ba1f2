import { createHash } from 'node:crypto';
import { readDecision } from '@x/agent';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer, waitFor } from './helpers.js';

let server: TestServer | undefined;
afterEach(async () => {
  if (server === undefined) return;
  await server.stop();
  await removeDir(server.dataDir);
  server = undefined;
});

const deciderKey = 'key-of-the-decider';
const otherKey = 'key-of-someone-else';
const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

describe('POST /api/conversations/{id}/decisions', () => {
  it('denies with a reason, recorded with the key as principal; refuses bad input with 403/422/409', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo should-not-run' } }] },
      finishReply('understood'),
    ]);
    server = await startTestServer({
      llm,
      config: { apiKeys: [deciderKey, otherKey], approvalDeciders: [principal(deciderKey)] },
    });
    const as = (key: string) => ({ 'x-session-api-key': key });
    const { status, json } = await server.call(
      'POST',
      '/api/conversations',
      {
        agent: {
          llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' },
          tools: [{ name: 'TerminalTool' }],
        },
        confirmation_policy: { kind: 'AlwaysConfirm' },
        initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
      },
      as(deciderKey),
    );
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    const info = async () =>
      (await server!.call('GET', `/api/conversations/${id}`, undefined, as(deciderKey))).json as Record<
        string,
        unknown
      >;
    const managed = await server.built.manager.require(id);
    await waitFor(async () => (await info()).execution_status === 'waiting_for_confirmation' && !managed.isRunning);
    const [action] = await (await managed.open()).pendingActions();
    const path = `/api/conversations/${id}/decisions`;
    const deny = { decisions: [{ action_id: action!.id, decision: { kind: 'deny', reason: 'not today' } }] };

    expect((await server.call('POST', path, deny, as(otherKey))).status).toBe(403);
    const rejectAsOther = { accept: false, reason: 'no' };
    const refused = await server.call(
      'POST',
      `/api/conversations/${id}/events/respond_to_confirmation`,
      rejectAsOther,
      as(otherKey),
    );
    expect(refused.status).toBe(403);
    const badArguments = {
      decisions: [{ action_id: action!.id, decision: { kind: 'approve', arguments: { command: 7 } } }],
    };
    const bad = await server.call('POST', path, badArguments, as(deciderKey));
    expect(bad.status, JSON.stringify(bad.json)).toBe(422);
    expect(
      (
        await server.call(
          'POST',
          path,
          { decisions: [{ action_id: action!.id, decision: { kind: 'maybe' } }] },
          as(deciderKey),
        )
      ).status,
    ).toBe(422);

    const decided = await server.call('POST', path, deny, as(deciderKey));
    expect(decided.status).toBe(200);
    expect(decided.json).toMatchObject({ decisions: [{ action_id: action!.id, principal: principal(deciderKey) }] });
    await waitFor(async () => (await info()).execution_status === 'finished' && !managed.isRunning);
    const approve = { decisions: [{ action_id: action!.id, decision: { kind: 'approve' } }] };
    const late = await server.call('POST', path, approve, as(deciderKey));
    expect(late.status).toBe(409);
    expect(JSON.stringify(late.json)).toContain('deny');
    expect(JSON.stringify(llm.requests.at(-1))).toContain('not today');
    const listed = await server.call('GET', path, undefined, as(otherKey));
    expect(listed.json).toMatchObject({
      decisions: [
        { action_id: action!.id, principal: principal(deciderKey), decision: { kind: 'deny', reason: 'not today' } },
      ],
    });
  }, 120_000);

  it('takes approval_rules in the create body (x field): a rule denies, recorded as the rule; bad rules are 422', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] },
      finishReply('ok, not deleting'),
    ]);
    server = await startTestServer({ llm });
    const agent = {
      llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' },
      tools: [{ name: 'TerminalTool' }],
    };
    const bad = await server.call('POST', '/api/conversations', {
      agent,
      approval_rules: [{ tool: 'terminal', status: 'maybe' }],
    });
    expect(bad.status).toBe(422);
    const { status, json } = await server.call('POST', '/api/conversations', {
      agent,
      approval_rules: [
        { name: 'no-rm', tool: 'terminal', arguments: { command: '^rm ' }, status: 'denied', reason: 'no deleting' },
      ],
      initial_message: { content: [{ type: 'text', text: 'clean up' }], run: true },
    });
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    const managed = await server.built.manager.require(id);
    const info = async () => (await server!.call('GET', `/api/conversations/${id}`)).json as Record<string, unknown>;
    await waitFor(async () => (await info()).execution_status === 'finished' && !managed.isRunning);
    expect(JSON.stringify(llm.requests.at(-1))).toContain('no deleting');
    const conversation = await managed.open();
    const events = [];
    for await (const event of conversation.events()) events.push(event);
    const action = events.find((event) => event.kind === 'ActionEvent');
    expect((await readDecision(conversation.store, conversation.directory, action!.id))?.principal).toBe('rule:no-rm');
  }, 120_000);
});
