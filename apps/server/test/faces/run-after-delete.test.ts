// A conversation deleted while a face waits for its run to answer (not a stream: those are
// stream-after-delete.test.ts): the answer must not report the deleted conversation as paused, a state a client would
// act on (run it again, answer a confirmation) though nothing is left. Each client is the official one; the model's
// reply is held back until the delete has finished, so the run is under way when it happens (the delete interrupts it).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, rejectionOf } from '../support/openai-gateway.js';

let server: TestServer;
let mcp: Client;
let openai: OpenAI;

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: {
      openaiModels: {
        'x-terminal': {
          agent: {
            llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test-secret' },
            tools: [{ name: 'TerminalTool' }],
          },
        },
      },
    },
    // A delete that waited for the step under way (the held model call) would wait this long: the test would time out.
    build: { deleteRunTimeoutMs: 600_000 },
  });
  mcp = new Client({ name: 'run-after-delete', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
  openai = new OpenAI({ apiKey: 'unused', baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await mcp.close();
  await server.stop();
  await removeDir(server.dataDir);
});

/** Holds the model's next reply; deletes `id` once the model was called, then lets it answer. */
async function deleteMidRun(id: () => Promise<string>): Promise<void> {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const before = server.llm.requests.length;
  server.llm.push({ ...finishReply('done'), gate });
  await server.llm.waitForRequests(before + 1);
  const { status } = await server.call('DELETE', `/api/conversations/${await id()}`);
  expect(status).toBe(200);
  open();
}

describe('a run whose conversation is deleted while a face waits for its answer', () => {
  it('MCP run answers a tool error saying the conversation was deleted, not its view as paused', async () => {
    const id = await createConversation(server);
    const call = mcp.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Work on it' } });
    await deleteMidRun(async () => id);
    const result = (await call) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ reason: 'conversation_deleted', conversation_id: id });
    expect(result.content).toEqual([{ type: 'text', text: `Conversation '${id}' was deleted` }]);
  });

  it('OpenAI answers 409 conversation_deleted naming it, not agent_run_not_finished for a paused run', async () => {
    let id = '';
    const call = rejectionOf(
      openai.chat.completions.create({ model: 'x-terminal', messages: [{ role: 'user', content: 'Work on it' }] }),
    );
    await deleteMidRun(async () => {
      // The gateway names the conversation in its answer only: the one running is it.
      const running = (await server.built.manager.list()).find((conversation) => conversation.isRunning);
      id = running?.id ?? '';
      return id;
    });
    const error = await call;
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'conversation_deleted', type: 'invalid_request_error' });
    expect((error as Error).message).toContain(`conversation ${id} did not answer: the conversation was deleted`);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get(CONVERSATION_HEADER)).toBe(id);
  });

  it('an OpenAI Responses stream ends with response.failed, code conversation_deleted', async () => {
    const stream = await openai.responses.create({ model: 'x-terminal', input: 'Work on it', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    const read = (async () => {
      for await (const event of stream) events.push(event);
    })();
    await deleteMidRun(async () => {
      const running = (await server.built.manager.list()).find((conversation) => conversation.isRunning);
      return running?.id ?? '';
    });
    await read;
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'conversation_deleted' } },
    });
  });
});
