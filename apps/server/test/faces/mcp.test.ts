// The MCP face judged by the official SDK: `@modelcontextprotocol/sdk`'s Client over StreamableHTTPClientTransport
// drives a real server on 127.0.0.1 (the scripted OpenAI-protocol model): tools, progress, confirmations, typed
// errors, a client that leaves mid-run, sessions, and the session key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import {
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';

let server: TestServer;
let client: Client;

/** Long enough for a loaded machine; progress resets it, as for a long run. */
const CALL = { timeout: 120_000, resetTimeoutOnProgress: true };

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const mcp = new Client({ name: 'x-mcp-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } }));
  return mcp;
}

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
  client = await connect(server.url);
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

type View = { conversation_id: string; status: string; final_answer: string; pending_actions: { tool_name: string }[] };
const viewOf = (result: unknown): View => (result as CallToolResult).structuredContent as View;

async function start(mcp: Client = client, args: Record<string, unknown> = {}): Promise<string> {
  return viewOf(await mcp.callTool({ name: 'start_conversation', arguments: args })).conversation_id;
}

describe('MCP face over streamable HTTP, driven by @modelcontextprotocol/sdk', () => {
  it('lists the tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'confirm_actions',
      'get_conversation',
      'interrupt',
      'list_conversations',
      'run',
      'send_message',
      'start_conversation',
    ]);
    const run = tools.find((tool) => tool.name === 'run');
    expect(run?.inputSchema).toMatchObject({ type: 'object', required: ['conversation_id'] });
    expect(client.getServerVersion()?.name).toBe('x');
    const { json } = await server.call('GET', '/openapi.json');
    const path = (json as { paths: Record<string, Record<string, { tags?: string[] }>> }).paths['/api/mcp'];
    expect(Object.keys(path ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    expect(path?.post?.tags).toEqual(['mcp']);
  });

  it('starts a conversation on the default agent, runs it with progress, and reads its final answer', async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo from-mcp' } }] },
      finishReply('Said it.'),
    );
    const id = await start();
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'run', arguments: { conversation_id: id, message: 'Say hello from the terminal' } },
      undefined,
      { ...CALL, onprogress: (update) => progress.push(update) },
    );
    expect(viewOf(result)).toMatchObject({ conversation_id: id, status: 'finished', final_answer: 'Said it.' });
    expect(JSON.parse(((result as CallToolResult).content[0] as { text: string }).text)).toEqual(viewOf(result));
    expect(progress.map((update) => update.message)).toContainEqual('agent calls terminal: echo from-mcp');
    // Progress is the log's length after each event of the run: consecutive, ending at the log's end.
    const values = progress.map((update) => update.progress);
    expect(values).toEqual(values.map((_, index) => (values[0] ?? 0) + index));
    expect(values.at(-1)).toBe((await server.built.manager.require(id)).log.length);

    // Nothing to run without a new message: the finished conversation as it is, and no model call.
    const asked = server.llm.requests.length;
    const again = viewOf(await client.callTool({ name: 'run', arguments: { conversation_id: id } }, undefined, CALL));
    expect(again).toMatchObject({ status: 'finished', final_answer: 'Said it.' });
    expect(server.llm.requests).toHaveLength(asked);
    const read = viewOf(await client.callTool({ name: 'get_conversation', arguments: { conversation_id: id } }));
    expect(read).toMatchObject({ status: 'finished', final_answer: 'Said it.', pending_actions: [] });
    const listed = (await client.callTool({ name: 'list_conversations', arguments: {} })) as CallToolResult;
    expect((listed.structuredContent as { conversations: { conversation_id: string }[] }).conversations).toContainEqual(
      expect.objectContaining({ conversation_id: id, status: 'finished' }),
    );
  });

  it('records a message with send_message, then runs on it', async () => {
    server.llm.push(finishReply('Got both.'));
    const id = await start(client, { message: 'first' });
    const sent = viewOf(
      await client.callTool({ name: 'send_message', arguments: { conversation_id: id, message: 'second' } }),
    );
    expect(sent.status).toBe('idle');
    const done = viewOf(await client.callTool({ name: 'run', arguments: { conversation_id: id } }, undefined, CALL));
    expect(done.final_answer).toBe('Got both.');
    const texts = JSON.stringify(server.llm.requests.at(-1));
    expect(texts).toContain('first');
    expect(texts).toContain('second');
  });

  it('stops for confirmation, then runs approved actions and tells the agent about rejected ones', async () => {
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo approved-step' } }] },
      finishReply('ok'),
    );
    const approved = await start(client, { conversation });
    const waiting = viewOf(
      await client.callTool(
        { name: 'run', arguments: { conversation_id: approved, message: 'Do it' } },
        undefined,
        CALL,
      ),
    );
    expect(waiting.status).toBe('waiting_for_confirmation');
    expect(waiting.pending_actions).toEqual([expect.objectContaining({ tool_name: 'terminal' })]);
    const done = viewOf(
      await client.callTool(
        { name: 'confirm_actions', arguments: { conversation_id: approved, approve: true } },
        undefined,
        CALL,
      ),
    );
    expect(done).toMatchObject({ status: 'finished', final_answer: 'ok' });
    const log = (await server.built.manager.require(approved)).log;
    expect(JSON.stringify(await log.range(0, log.length))).toContain('"text":"approved-step"');

    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] }, finishReply('fine'));
    const rejected = await start(client, { conversation });
    await client.callTool({ name: 'run', arguments: { conversation_id: rejected, message: 'Clean' } }, undefined, CALL);
    const after = viewOf(
      await client.callTool(
        { name: 'confirm_actions', arguments: { conversation_id: rejected, approve: false, reason: 'not today' } },
        undefined,
        CALL,
      ),
    );
    expect(after).toMatchObject({ status: 'finished', final_answer: 'fine' });
    const events = await (await server.built.manager.require(rejected)).log.range(0, 100);
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'UserRejectObservation', rejection_reason: 'not today' }),
    );
  });

  it('answers an unknown tool as a JSON-RPC error with data.reason, what the tool refuses as tool errors', async () => {
    const unknown = '0b3a5a8e-7a61-4c1e-9a55-3f4a1f0e2b7c';
    // A conversation named that is not is an execution error the model reads (and calls list_conversations).
    const notFound = await client.callTool({ name: 'get_conversation', arguments: { conversation_id: unknown } });
    expect(notFound).toMatchObject({
      isError: true,
      structuredContent: { reason: 'conversation_not_found', conversation_id: unknown },
    });
    expect((notFound.content as { text: string }[])[0]?.text).toContain(`No conversation '${unknown}'`);
    await expect(
      client.callTool({ name: 'get_conversation', arguments: { conversation_id: 'nope' } }),
    ).resolves.toMatchObject({ isError: true, structuredContent: { reason: 'conversation_not_found' } });
    // Arguments the schema refuses are tool execution errors the model reads (MCP 2025-11-25), the reason structured.
    await expect(client.callTool({ name: 'run', arguments: {} })).resolves.toMatchObject({
      isError: true,
      structuredContent: { reason: 'invalid_arguments', path: 'arguments.conversation_id' },
    });
    await expect(
      client.callTool({ name: 'send_message', arguments: { conversation_id: unknown, message: 'x', extra: 1 } }),
    ).resolves.toMatchObject({ isError: true, structuredContent: { reason: 'invalid_arguments' } });
    await expect(client.callTool({ name: 'list_conversations', arguments: { cursor: 'x' } })).resolves.toMatchObject({
      isError: true,
      structuredContent: { reason: 'invalid_arguments', path: 'arguments.cursor' },
    });
    await expect(
      client.callTool({ name: 'start_conversation', arguments: { conversation: { agent: 'no' } } }),
    ).resolves.toMatchObject({
      isError: true,
      structuredContent: { reason: 'invalid_arguments', path: 'arguments.conversation.agent' },
    });
    await expect(client.callTool({ name: 'fly', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'unknown_tool' },
    });
    const id = await start();
    await expect(
      client.callTool({ name: 'confirm_actions', arguments: { conversation_id: id, approve: true } }),
    ).resolves.toMatchObject({
      isError: true,
      structuredContent: { reason: 'no_pending_actions', conversation_id: id, status: 'idle' },
    });
  });

  it('keeps running when the client cancels the call and leaves mid-run; another client reads the answer', async () => {
    const held = gate();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo part-one' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo part-two' } }], gate: held.promise },
      finishReply('finished alone'),
    );
    const leaving = await connect(server.url);
    const id = await start(leaving);
    const seen: string[] = [];
    const cancel = new AbortController();
    const call = leaving
      .callTool({ name: 'run', arguments: { conversation_id: id, message: 'Two parts' } }, undefined, {
        ...CALL,
        signal: cancel.signal,
        onprogress: (update) => seen.push(update.message ?? ''),
      })
      .catch((error: unknown) => error);
    await waitFor(async () => seen.some((message) => message.startsWith('terminal returned')));
    // The SDK sends notifications/cancelled for the call, then the client goes away altogether.
    cancel.abort();
    expect(await call).toBeInstanceOf(Error);
    // The cancellation is a notification of its own: a round trip after it, and the server has it.
    await leaving.ping();
    await leaving.close();
    const managed = await server.built.manager.require(id);
    expect(managed.isRunning).toBe(true);
    held.open();
    await waitForIdle(server, id);
    const later = await connect(server.url);
    const view = viewOf(await later.callTool({ name: 'get_conversation', arguments: { conversation_id: id } }));
    expect(view).toMatchObject({ status: 'finished', final_answer: 'finished alone' });
    await later.close();
  });

  it('ends sessions on DELETE and refuses unknown sessions and requests without one', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
    const mcp = new Client({ name: 'x-mcp-test', version: '1.0.0' });
    await mcp.connect(transport);
    const sessionId = transport.sessionId ?? '';
    expect(sessionId).not.toBe('');
    await transport.terminateSession();
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const gone = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers, body });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: { code: -32001 } });
    const { 'mcp-session-id': _, ...noSession } = headers;
    const without = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers: noSession, body });
    expect(without.status).toBe(400);
    await mcp.close();
  });

  it('keeps the endpoint behind the session key and the Host check', async () => {
    const keyed = await startTestServer({ llm: server.llm, config: { apiKeys: ['mcp-key'] } });
    try {
      await expect(connect(keyed.url)).rejects.toMatchObject({ code: 401 });
      const mcp = await connect(keyed.url, { 'X-Session-API-Key': 'mcp-key' });
      expect((await mcp.listTools()).tools).toHaveLength(7);
      // No default agent here: start_conversation says what to pass.
      await expect(mcp.callTool({ name: 'start_conversation', arguments: {} })).resolves.toMatchObject({
        isError: true,
        structuredContent: { reason: 'no_default_agent', path: 'arguments.conversation' },
      });
      await mcp.close();
      const rebinding = await rawRequest(Number(new URL(keyed.url).port), {
        method: 'POST',
        target: '/api/mcp',
        headers: { Host: 'attacker.example', 'X-Session-API-Key': 'mcp-key' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      });
      expect(rebinding.status).toBe(403);
    } finally {
      await keyed.built.close();
      await removeDir(keyed.dataDir);
    }
  });
});
