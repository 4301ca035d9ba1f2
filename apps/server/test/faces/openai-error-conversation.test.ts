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

describe('a follow-up message on a conversation waiting for a confirmation', () => {
  /** A conversation the gateway left waiting for confirmation of one command, and its log length. */
  async function waiting(): Promise<{ id: string; length: number }> {
    server.llm.push(toolCall);
    const error = await rejectionOf(
      client.chat.completions.create({ model: 'x-confirming', messages: [{ role: 'user', content: 'run it' }] }),
    );
    const { id, status } = await namedConversation(error);
    expect(status).toBe('waiting_for_confirmation');
    const managed = await server.built.manager.require(id ?? '');
    return { id: id ?? '', length: managed.log.length };
  }

  it.each([
    [
      'chat completions',
      (id: string) =>
        client.chat.completions.create(
          { model: 'x-confirming', messages: [{ role: 'user', content: 'No, do not run that' }] },
          { headers: { [CONVERSATION_HEADER]: id } },
        ),
    ],
    [
      'the Responses API',
      (id: string) =>
        client.responses.create(
          { model: 'x-confirming', input: 'No, do not run that' },
          { headers: { [CONVERSATION_HEADER]: id } },
        ),
    ],
  ])('is refused on %s with a 409 naming the action, approving nothing', async (_face, send) => {
    const { id, length } = await waiting();
    const error = await rejectionOf(send(id));
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'conversation_waiting_for_confirmation' });
    const managed = await server.built.manager.require(id);
    const [pending] = await (await managed.open()).pendingActions();
    expect((error as Error).message).toContain(`'${pending?.id}' (terminal)`);
    expect((error as Error).message).toContain(`/api/conversations/${id}/events/respond_to_confirmation`);
    expect(managed.log.length).toBe(length);
    expect((await managed.open()).state.execution_status).toBe('waiting_for_confirmation');
  });

  it('goes on once the actions are decided through the conversation API', async () => {
    const { id } = await waiting();
    const decided = await server.call(
      'POST',
      `/api/conversations/${id}/events/respond_to_confirmation`,
      { accept: false, reason: 'not now' },
      { 'X-Session-API-Key': KEY },
    );
    expect(decided.status).toBe(200);
    const managed = await server.built.manager.require(id);
    await expect.poll(async () => (await (await managed.open()).pendingActions()).length).toBe(0);
    // A rejection records the refusal for the agent and runs nothing until the next message.
    expect((await managed.open()).state.execution_status).toBe('idle');
    server.llm.push({ content: 'Next answer.' });
    const next = await client.chat.completions.create(
      { model: 'x-confirming', messages: [{ role: 'user', content: 'What now?' }] },
      { headers: { [CONVERSATION_HEADER]: id } },
    );
    expect(next.choices[0]?.message.content).toBe('Next answer.');
  });
});
