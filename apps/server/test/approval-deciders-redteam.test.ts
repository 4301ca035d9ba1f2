// `approvalDeciders` names who may decide on pending actions. A run started on a conversation waiting for
// confirmation runs its pending actions (reference `run` semantics), so every face that starts a run is an approval:
// each must refuse a caller outside the list, whichever route, face or socket it comes through.
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedConversation } from '../src/conversations/managed-conversation.js';
import type { ServerConfigInput } from '../src/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitFor } from './helpers.js';
import { connectRecording } from './support/socket-client.js';

const DECIDER = 'key-of-the-decider-0001';
const OTHER = 'key-of-someone-else-0002';
const principal = (key: string) => `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
const as = (key: string) => ({ 'x-session-api-key': key });

let server: TestServer;
let marker = 0;

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: {
      apiKeys: [DECIDER, OTHER],
      approvalDeciders: [principal(DECIDER)],
      openaiModels: { agent: createRequest(llm) as NonNullable<ServerConfigInput['mcpConversation']> },
    },
  });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

interface Waiting {
  id: string;
  managed: ManagedConversation;
  actionId: string;
  command: string;
}

/** A conversation (created by the decider) waiting for confirmation of `echo <unique marker>`. */
async function waiting(): Promise<Waiting> {
  marker += 1;
  const command = `echo approval-marker-${marker}`;
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
  const created = await server.call(
    'POST',
    '/api/conversations',
    {
      ...createRequest(server.llm),
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: { content: [{ type: 'text', text: 'do it' }], run: true },
    },
    as(DECIDER),
  );
  const id = (created.json as { id: string }).id;
  const managed = await server.built.manager.require(id);
  await waitFor(async () => {
    const open = await managed.open();
    return open.state.execution_status === 'waiting_for_confirmation' && !managed.isRunning;
  });
  const [action] = await (await managed.open()).pendingActions();
  return { id, managed, actionId: action!.id, command };
}

/** The model's reply once the pending command has run (pushed only where a run is expected: a refused one asks none). */
function expectRun(): void {
  server.llm.push(finishReply('done'));
}

/** Whether the pending command ran (its output is in an observation). */
async function ran(conversation: Waiting): Promise<boolean> {
  const events = await conversation.managed.log.range(0, conversation.managed.log.length);
  return events.some(
    (event) => event.kind === 'ObservationEvent' && JSON.stringify(event).includes(conversation.command.slice(5)),
  );
}

async function stillWaiting(conversation: Waiting): Promise<void> {
  expect(await ran(conversation)).toBe(false);
  expect((await conversation.managed.open()).state.execution_status).toBe('waiting_for_confirmation');
}

async function finished(conversation: Waiting): Promise<void> {
  await waitFor(async () => !conversation.managed.isRunning && (await ran(conversation)));
}

const refusal = {
  code: 'principal_not_allowed',
  detail: `'${principal(OTHER)}' is not allowed to decide on pending actions.`,
};

describe('approvalDeciders on every way to run a waiting conversation', () => {
  it('REST: run and a message with run refuse another key 403 and run nothing', async () => {
    const conversation = await waiting();
    const run = await server.call('POST', `/api/conversations/${conversation.id}/run`, undefined, as(OTHER));
    expect(run).toEqual({ status: 403, json: refusal });
    const message = { role: 'user', content: [{ type: 'text', text: 'go on' }], run: true };
    const sent = await server.call('POST', `/api/conversations/${conversation.id}/events`, message, as(OTHER));
    expect(sent).toEqual({ status: 403, json: refusal });
    await stillWaiting(conversation);
    // Refused before it was recorded: a client that retries does not send it twice.
    const events = await conversation.managed.log.range(0, conversation.managed.log.length);
    expect(events.filter((event) => JSON.stringify(event).includes('go on'))).toEqual([]);
  });

  it('AG-UI: a resume approving the interrupt is refused to another key, taken from the decider', async () => {
    const conversation = await waiting();
    const input = (runId: string) => ({
      threadId: conversation.id,
      runId,
      messages: [],
      resume: [{ interruptId: conversation.actionId, status: 'resolved', payload: { approved: true } }],
    });
    const refused = await server.call('POST', '/api/ag-ui', input('r1'), as(OTHER));
    expect(refused).toEqual({ status: 403, json: refusal });
    await stillWaiting(conversation);
    expectRun();
    const accepted = await fetch(`${server.url}/api/ag-ui`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...as(DECIDER) },
      body: JSON.stringify(input('r2')),
    });
    expect(accepted.status).toBe(200);
    await accepted.text();
    await finished(conversation);
  });

  it('A2A: a message approving the confirmation is refused to another key, taken from the decider', async () => {
    const conversation = await waiting();
    const approve = (key: string) =>
      server.call(
        'POST',
        '/api/a2a',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: {
            message: {
              messageId: `m-${key}`,
              role: 'ROLE_USER',
              taskId: conversation.id,
              parts: [],
              metadata: { confirmation: { approved: true } },
            },
          },
        },
        as(key),
      );
    const refused = (await approve(OTHER)).json as { error?: { message: string; code: number } };
    expect(refused.error?.message).toBe(refusal.detail);
    expect(refused.error?.code).toBe(-32600);
    await stillWaiting(conversation);
    expectRun();
    const accepted = (await approve(DECIDER)).json as { result?: { task: { status: { state: string } } } };
    expect(accepted.result?.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await ran(conversation)).toBe(true);
  });

  it('MCP: confirm_actions approving is refused to another key sent as a bearer token', async () => {
    const conversation = await waiting();
    const mcp = new Client({ name: 'redteam', version: '1.0.0' });
    const headers = { authorization: `Bearer ${OTHER}` };
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } }),
    );
    const call = mcp.callTool({
      name: 'confirm_actions',
      arguments: { conversation_id: conversation.id, approve: true },
    });
    const outcome = await call.then(
      (result) => JSON.stringify((result as CallToolResult).content),
      (error: unknown) => (error as Error).message,
    );
    await mcp.close();
    expect(outcome).toContain('is not allowed to decide on pending actions');
    await stillWaiting(conversation);
  });

  it('OpenAI: a turn continuing the conversation is refused to another key sent as a bearer token (a turn decides nothing for any key)', async () => {
    const conversation = await waiting();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${OTHER}`,
        'X-OpenHands-ServerConversation-ID': conversation.id,
      },
      body: JSON.stringify({ model: 'agent', messages: [{ role: 'user', content: 'go on' }] }),
    });
    const body = await response.text();
    expect(response.status, body).toBe(409);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'conversation_waiting_for_confirmation' } });
    await stillWaiting(conversation);
    const events = await conversation.managed.log.range(0, conversation.managed.log.length);
    expect(events.filter((event) => JSON.stringify(event).includes('go on'))).toEqual([]);
  });

  it('event socket: a message frame is refused to a socket opened with another key, taken from the decider’s', async () => {
    const conversation = await waiting();
    const url = (key: string) =>
      `${server.url.replace('http', 'ws')}/sockets/events/${conversation.id}?session_api_key=${key}`;
    const other = connectRecording(url(OTHER));
    await other.opened;
    other.send({ role: 'user', content: [{ type: 'text', text: 'go on' }] });
    await other.waitFor((frames) => frames.some((frame) => frame.kind === 'ServerErrorEvent'));
    other.ws.close();
    const error = other.frames.find((frame) => frame.kind === 'ServerErrorEvent');
    expect(JSON.stringify(error)).toContain('is not allowed to decide on pending actions');
    await stillWaiting(conversation);
    expectRun();
    const decider = connectRecording(url(DECIDER));
    await decider.opened;
    decider.send({ role: 'user', content: [{ type: 'text', text: 'go on' }] });
    await finished(conversation);
    decider.ws.close();
  });

  it('lets anyone run once a decider has decided every pending action', async () => {
    const conversation = await waiting();
    const decisions = { decisions: [{ action_id: conversation.actionId, decision: { kind: 'approve' } }], run: false };
    const decided = await server.call(
      'POST',
      `/api/conversations/${conversation.id}/decisions`,
      decisions,
      as(DECIDER),
    );
    expect(decided.status).toBe(200);
    await stillWaiting(conversation);
    expectRun();
    const run = await server.call('POST', `/api/conversations/${conversation.id}/run`, undefined, as(OTHER));
    expect(run.status).toBe(200);
    await finished(conversation);
  });
});

describe('approvalDeciders on every way to reject pending actions', () => {
  it('AG-UI, A2A (answer and cancel) and MCP refuse another key a rejection, and reject nothing', async () => {
    const conversation = await waiting();
    const agUi = await server.call(
      'POST',
      '/api/ag-ui',
      {
        threadId: conversation.id,
        runId: 'r1',
        messages: [],
        resume: [{ interruptId: conversation.actionId, status: 'cancelled' }],
      },
      as(OTHER),
    );
    expect(agUi).toEqual({ status: 403, json: refusal });
    const rpc = (method: string, params: unknown) =>
      server.call('POST', '/api/a2a', { jsonrpc: '2.0', id: 1, method, params }, as(OTHER));
    const answer = {
      message: {
        messageId: 'no',
        role: 'ROLE_USER',
        taskId: conversation.id,
        parts: [{ text: 'no' }],
        metadata: { confirmation: { approved: false, reason: 'no' } },
      },
    };
    expect(((await rpc('SendMessage', answer)).json as { error?: { message: string } }).error?.message).toBe(
      refusal.detail,
    );
    const canceled = (await rpc('CancelTask', { id: conversation.id })).json as { error?: { message: string } };
    expect(canceled.error?.message).toBe(refusal.detail);
    const mcp = new Client({ name: 'redteam', version: '1.0.0' });
    const headers = { authorization: `Bearer ${OTHER}` };
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } }),
    );
    const outcome = await mcp
      .callTool({ name: 'confirm_actions', arguments: { conversation_id: conversation.id, approve: false } })
      .then(
        (result) => JSON.stringify((result as CallToolResult).content),
        (error: unknown) => (error as Error).message,
      );
    await mcp.close();
    expect(outcome).toContain('is not allowed to decide on pending actions');
    await stillWaiting(conversation);
    const listed = await server.call('GET', `/api/conversations/${conversation.id}/decisions`, undefined, as(DECIDER));
    expect(listed.json).toEqual({ decisions: [] });
  });

  it('records the decider’s rejection through a face with the decider as principal', async () => {
    const conversation = await waiting();
    expectRun();
    const mcp = new Client({ name: 'redteam', version: '1.0.0' });
    const headers = { authorization: `Bearer ${DECIDER}` };
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers } }),
    );
    await mcp.callTool({
      name: 'confirm_actions',
      arguments: { conversation_id: conversation.id, approve: false, reason: 'not today' },
    });
    await mcp.close();
    const listed = await server.call('GET', `/api/conversations/${conversation.id}/decisions`, undefined, as(DECIDER));
    const [record] = (listed.json as { decisions: { principal: string; decision: unknown }[] }).decisions;
    expect(record?.principal).toBe(principal(DECIDER));
    expect(record?.decision).toEqual({ kind: 'deny', reason: 'not today' });
    expect(await ran(conversation)).toBe(false);
  });
});

describe('approvalDeciders on the confirmation policy', () => {
  it('refuses another key a change of policy (NeverConfirm would run every later action undecided)', async () => {
    const conversation = await waiting();
    const path = `/api/conversations/${conversation.id}/confirmation_policy`;
    const relaxed = await server.call('POST', path, { policy: { kind: 'NeverConfirm' } }, as(OTHER));
    expect(relaxed).toEqual({ status: 403, json: refusal });
    expect((await conversation.managed.open()).state.confirmation_policy).toEqual({ kind: 'AlwaysConfirm' });
    const byDecider = await server.call('POST', path, { policy: { kind: 'NeverConfirm' } }, as(DECIDER));
    expect(byDecider.status).toBe(200);
    expect((await conversation.managed.open()).state.confirmation_policy).toEqual({ kind: 'NeverConfirm' });
    await stillWaiting(conversation);
  });
});
