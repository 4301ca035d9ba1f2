// How the gateway starts and ends a run, judged by the official `openai` SDK against a real server whose agents use the
// scripted model on loopback: a model configured with a system message suffix keeps it, the request's system text
// joined after it; a run that stops to ask for a confirmation is a 409 ConflictError `agent_run_not_finished` on
// both faces, not a 200 with no answer, and not retried; and a streamed chat whose run fails ends with the error the
// SDK throws, logged for the operator with its conversation.
import { startScriptedLLMServer } from '@x/agent/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rejectionOf } from '../support/openai-gateway.js';

const KEY = 'gateway-run-key';
const SUFFIX = 'Always answer in French.';
let server: TestServer;
let client: OpenAI;
const logs: Record<string, unknown>[] = [];

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
      logLevel: 'warn',
      openaiModels: {
        'x-suffixed': { agent: { ...agent, agent_context: { system_message_suffix: `  ${SUFFIX}\n` } } },
        'x-confirming': { agent, confirmation_policy: { kind: 'AlwaysConfirm' } },
      },
    },
    build: { logStream: { write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) } },
  });
  client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** The system message text of the latest model call. */
function lastSystemText(): string {
  const messages = (server.llm.requests.at(-1)?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const system = messages.find((message) => message.role === 'system');
  const content = system?.content;
  if (typeof content === 'string') return content;
  return ((content ?? []) as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
}

describe("a model's own system message suffix", () => {
  it('is kept, with the request system text joined after it by a blank line', async () => {
    server.llm.push(finishReply('Bonjour.'));
    const completion = await client.chat.completions.create({
      model: 'x-suffixed',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('Bonjour.');
    expect(lastSystemText()).toContain(`${SUFFIX}\n\nBe brief.`);
  });

  it('is kept alone when the request has no system text', async () => {
    server.llm.push(finishReply('Salut.'));
    const response = await client.responses.create({ model: 'x-suffixed', input: 'hi' });
    expect(response.output_text).toBe('Salut.');
    expect(lastSystemText()).toContain(SUFFIX);
    expect(lastSystemText()).not.toContain(`${SUFFIX}\n\n`);
  });
});

describe('a run that stops for a confirmation', () => {
  const toolCall = { toolCalls: [{ name: 'terminal', arguments: { command: 'echo never-confirmed' } }] };

  it('is a 409 ConflictError agent_run_not_finished on chat completions, not retried', async () => {
    const retrying = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1` }); // the SDK's default retries
    server.llm.push(toolCall);
    const before = server.llm.requests.length;
    const error = await rejectionOf(
      retrying.chat.completions.create({ model: 'x-confirming', messages: [{ role: 'user', content: 'run it' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'agent_run_not_finished', type: 'invalid_request_error' });
    expect((error as Error).message).toContain('stopped with status waiting_for_confirmation');
    expect(server.llm.requests.length - before).toBe(1);
  });

  it('is a 409 on the Responses API, and the response is kept as failed with that code', async () => {
    server.llm.push(toolCall);
    const stream = await client.responses.create({ model: 'x-confirming', input: 'run it', stream: true });
    let ended: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.failed') ended = event.response;
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'agent_run_not_finished' }, output: [] });
    const retrieved = await client.responses.retrieve(ended?.id ?? '');
    expect(retrieved).toMatchObject({ status: 'failed', error: { code: 'agent_run_not_finished' } });
  });
});

describe('a streamed chat whose run fails', () => {
  it("ends with an error frame the SDK throws, logged as a warning naming the run's conversation", async () => {
    server.llm.push({ error: { status: 400, message: 'the model refused the request' } });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'x-suffixed', messages: [{ role: 'user', content: 'fail' }], stream: true })
      .withResponse();
    const roles: unknown[] = [];
    const error = await (async () => {
      for await (const chunk of stream) roles.push(chunk.choices[0]?.delta.role);
    })().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(roles).toEqual(['assistant']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ code: 'agent_run_failed' });
    // The message says why the run failed: the error event's code and the provider's own words.
    expect((error as Error).message).toMatch(/ended with status error: LLM\w+Error: .*the model refused the request/);
    const conversationId = response.headers.get('x-openhands-serverconversation-id');
    expect(
      logs.filter((line) => line.msg === 'openai: the run did not answer' && line.conversationId === conversationId),
    ).toHaveLength(1);
  });
});
