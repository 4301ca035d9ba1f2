// previous_response_id across the gateway's models, judged by the official `openai` SDK against a real server with two
// models (two agents on the scripted model on loopback, each its own LLM model name): a follow-up asks the model whose
// agent runs the conversation, or is refused before any run (the conversation keeps its agent, so another model's
// name on the answer would be false); and a streamed run that fails is logged for the operator with its conversation.
import { startScriptedLLMServer } from '@x/agent/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, rejectionOf } from '../support/openai-gateway.js';

const KEY = 'gateway-models-key';
let server: TestServer;
let client: OpenAI;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  const agentOf = (model: string) => ({
    agent: {
      llm: { model, base_url: llm.baseURL, api_key: 'sk-test-secret' },
      tools: [{ name: 'TerminalTool' as const }],
    },
  });
  server = await startTestServer({
    llm,
    config: {
      apiKeys: [KEY],
      logLevel: 'warn',
      openaiModels: { 'x-first': agentOf('llm-first'), 'x-second': agentOf('llm-second') },
    },
    build: { logStream: { write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) } },
  });
  client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** The LLM model names the scripted model was asked with, from request `from` on. */
const askedModels = (from: number) => server.llm.requests.slice(from).map((request) => request.model);

describe('previous_response_id', () => {
  it("continues with the same model, that model's agent answering", async () => {
    const before = server.llm.requests.length;
    server.llm.push(finishReply('first'), finishReply('second'));
    const first = await client.responses.create({ model: 'x-second', input: 'hi' });
    const next = await client.responses.create({ model: 'x-second', previous_response_id: first.id, input: 'again' });
    expect(next).toMatchObject({ model: 'x-second', output_text: 'second', previous_response_id: first.id });
    expect(askedModels(before)).toEqual(['llm-second', 'llm-second']);
  });

  it('with another model is a 400 naming model, before any run', async () => {
    server.llm.push(finishReply('from the first model'));
    const first = await client.responses.create({ model: 'x-first', input: 'hi' });
    const before = server.llm.requests.length;
    const error = await rejectionOf(
      client.responses.create({ model: 'x-second', previous_response_id: first.id, input: 'switch models' }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'model', code: 'unsupported_value' });
    expect((error as Error).message).toContain("send model 'x-first'");
    expect(server.llm.requests.length).toBe(before);
  });
});

describe('a streamed run that fails', () => {
  it("is logged as a warning naming the run's conversation", async () => {
    server.llm.push({ error: { status: 400, message: 'the model refused the request' } });
    const { data: stream, response } = await client.responses
      .create({ model: 'x-first', input: 'fail', stream: true })
      .withResponse();
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.failed');
    const conversationId = response.headers.get(CONVERSATION_HEADER);
    expect(
      logs.filter((line) => line.msg === 'openai: the run did not answer' && line.conversationId === conversationId),
    ).toHaveLength(1);
  });
});
