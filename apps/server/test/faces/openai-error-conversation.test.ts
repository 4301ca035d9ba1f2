// Which conversation an error of the gateway is about, judged by the official `openai` SDK (its APIError's `headers`)
// against a real server whose agents use the scripted model on loopback. Once a request has started a run, its answer
// names the run's conversation in X-OpenHands-ServerConversation-ID, an error too: a run that stopped for a
// confirmation (409) leaves a conversation waiting, and the client needs its id to answer it (REST decisions) or to
// go on with the next message; the message text is no place to parse it from. An error before any run names none.
import { startScriptedLLMServer } from '@x/agent/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, rejectionOf } from '../support/openai-gateway.js';

const KEY = 'gateway-error-conversation-key';
let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  const agent = {
    llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test-secret' },
    tools: [{ name: 'TerminalTool' as const }],
  };
  server = await startTestServer({
    llm,
    config: {
      apiKeys: [KEY],
      openaiModels: { 'x-confirming': { agent, confirmation_policy: { kind: 'AlwaysConfirm' } } },
    },
  });
  client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const toolCall = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo waits-for-you' } }] };

/** The conversation an APIError names in its header, and that conversation's status now. */
async function namedConversation(error: unknown): Promise<{ id: string | null; status: string | undefined }> {
  expect(error).toBeInstanceOf(OpenAI.ConflictError);
  const id = (error as InstanceType<typeof OpenAI.APIError>).headers?.get(CONVERSATION_HEADER) ?? null;
  const managed = id === null ? undefined : await server.built.manager.get(id);
  return { id, status: managed === undefined ? undefined : (await managed.open()).state.execution_status };
}

describe('an error after the run started', () => {
  it('names the conversation waiting for a confirmation, on chat completions', async () => {
    server.llm.push(toolCall);
    const error = await rejectionOf(
      client.chat.completions.create({ model: 'x-confirming', messages: [{ role: 'user', content: 'run it' }] }),
    );
    const named = await namedConversation(error);
    expect(named.status).toBe('waiting_for_confirmation');
    expect((error as Error).message).toContain(`conversation ${named.id}`);
  });

  it('names the conversation waiting for a confirmation, on the Responses API', async () => {
    server.llm.push(toolCall);
    const error = await rejectionOf(client.responses.create({ model: 'x-confirming', input: 'run it' }));
    const named = await namedConversation(error);
    expect(named.status).toBe('waiting_for_confirmation');
    expect((error as Error).message).toContain(`conversation ${named.id}`);
  });
});

describe('an error before any run', () => {
  it('names no conversation', async () => {
    const error = await rejectionOf(
      client.chat.completions.create({ model: 'x-unknown', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get(CONVERSATION_HEADER)).toBeNull();
  });
});
