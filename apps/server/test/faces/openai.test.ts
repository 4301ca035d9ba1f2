// The OpenAI-compatible gateway judged by the official `openai` SDK: a client with `baseURL` `<server>/v1` and a
// session key as its API key lists the configured agents as models and chats with them, whole and streamed,
// against `x serve` (a real server on 127.0.0.1) whose agents use the scripted OpenAI-protocol model.
import { startScriptedLLMServer } from '@x/agent/testing';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';

const KEY = 'gateway-session-key';
const HEADER = 'X-OpenHands-ServerConversation-ID';

let server: TestServer;
let client: OpenAI;

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: {
      apiKeys: [KEY],
      openaiModels: {
        'x-terminal': {
          agent: {
            llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test-secret' },
            tools: [{ name: 'TerminalTool' }],
          },
        },
      },
    },
  });
  client = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

describe('the OpenAI-compatible gateway', () => {
  it('lists the configured agents as models', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => ({ id: model.id, object: model.object }))).toEqual([
      { id: 'x-terminal', object: 'model' },
    ]);
  });

  it("answers a chat completion with the agent's final response, and continues its conversation by header", async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo gateway-ran' } }] },
      finishReply('The terminal said gateway-ran'),
    );
    const { data, response } = await client.chat.completions
      .create({
        model: 'x-terminal',
        messages: [
          { role: 'system', content: 'Answer in one line.' },
          { role: 'user', content: 'Run echo gateway-ran' },
        ],
      })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('x-terminal');
    expect(data.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'The terminal said gateway-ran' });
    expect(data.choices[0]?.finish_reason).toBe('stop');
    // Two model calls of the scripted model's default usage (10 prompt, 5 completion each).
    expect(data.usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    const conversationId = response.headers.get(HEADER);
    expect(conversationId).toMatch(/^[0-9a-f-]{32,36}$/);
    const firstRequest = JSON.stringify(server.llm.requests.at(-2)?.messages);
    expect(firstRequest).toContain('Answer in one line.');
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('gateway-ran');

    server.llm.push(finishReply('You asked me to run echo'));
    const second = await client.chat.completions.create(
      { model: 'x-terminal', messages: [{ role: 'user', content: 'What did I ask?' }] },
      { headers: { [HEADER]: conversationId as string } },
    );
    expect(second.choices[0]?.message.content).toBe('You asked me to run echo');
    // The same conversation: the model saw the first turn again.
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('Run echo gateway-ran');
    const { json } = await server.call('GET', `/api/conversations/${conversationId}`, undefined, {
      'X-Session-API-Key': KEY,
    });
    expect((json as { id: string }).id.replaceAll('-', '')).toBe((conversationId as string).replaceAll('-', ''));
  });

  it('streams chat.completion.chunk frames: the role while the agent works, then the answer, usage, [DONE]', async () => {
    const held = gate();
    server.llm.push({ ...finishReply('streamed answer'), gate: held.promise });
    const stream = await client.chat.completions.create({
      model: 'x-terminal',
      messages: [{ role: 'user', content: 'Stream it' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    // The first chunk came while the model was still held: the stream is live, not replayed at the end.
    expect(first.done).toBe(false);
    chunks.push(first.value as OpenAI.ChatCompletionChunk);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    held.open();
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) chunks.push(next.value);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0]?.id)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('streamed answer');
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason ?? null)).toContain('stop');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
  });

  it('ends the raw stream with data: [DONE] and names the conversation in a header', async () => {
    server.llm.push(finishReply('raw'));
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'x-terminal', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get(HEADER)).toBeTruthy();
    const frames = (await response.text()).split('\n\n').filter((frame) => frame !== '');
    expect(frames.at(-1)).toBe('data: [DONE]');
    expect(frames.every((frame) => frame.startsWith('data: '))).toBe(true);
    expect(frames).toHaveLength(4);
  });
});

describe('gateway errors are OpenAI error bodies', () => {
  it('a wrong key is a 401 AuthenticationError', async () => {
    const wrong = new OpenAI({ apiKey: 'not-the-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const error = await wrong.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
  });

  it('takes the key as X-Session-API-Key too, and the bearer form only on /v1', async () => {
    const models = await server.call('GET', '/v1/models', undefined, { 'X-Session-API-Key': KEY });
    expect(models.status).toBe(200);
    const rest = await server.call('GET', '/api/conversations/search', undefined, { authorization: `Bearer ${KEY}` });
    expect(rest.status).toBe(401);
  });

  it('an unknown model is a 404 NotFoundError naming the models', async () => {
    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as Error).message).toContain('x-terminal');
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  it('a chat without a user message is a 400 BadRequestError', async () => {
    const error = await client.chat.completions
      .create({ model: 'x-terminal', messages: [{ role: 'system', content: 'only this' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('messages');
  });

  it('a run that fails is a 500 naming why, not retried by the SDK; streamed, an error frame the SDK throws', async () => {
    const retrying = new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1` }); // the SDK's default: 2 retries
    const before = server.llm.requests.length;
    server.llm.push({ error: { status: 400, message: 'the model refused the request' } });
    const error = await retrying.chat.completions
      .create({ model: 'x-terminal', messages: [{ role: 'user', content: 'fail' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toContain('ended with status error');
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('agent_run_failed');
    // One run, one model call: `x-should-retry: false` kept the SDK from running the agent again.
    expect(server.llm.requests.length - before).toBe(1);

    server.llm.push({ error: { status: 400, message: 'the model refused again' } });
    const stream = await client.chat.completions.create({
      model: 'x-terminal',
      messages: [{ role: 'user', content: 'fail while streaming' }],
      stream: true,
    });
    const streamed = await (async () => {
      for await (const _chunk of stream) {
        // the role chunk, then the error
      }
    })().catch((caught: unknown) => caught);
    expect(streamed).toBeInstanceOf(OpenAI.APIError);
    expect((streamed as Error).message).toContain('ended with status error');
  });

  const post = async (body: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
      body,
    });
    return { status: response.status, json: (await response.json()) as { error: Record<string, unknown> } };
  };

  it.each([
    ['malformed JSON', '{"model": "x-terminal", "messages": [', undefined],
    ['no messages', JSON.stringify({ model: 'x-terminal' }), 'messages'],
    [
      'a message with an unknown role',
      JSON.stringify({ model: 'x-terminal', messages: [{ role: 'robot' }] }),
      'messages[0].role',
    ],
    ['a body that is an array', '[1, 2]', undefined],
    [
      'an unsupported content part',
      JSON.stringify({ model: 'x-terminal', messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] }),
      'messages[0].content[0].type',
    ],
  ])('%s is a 400 invalid_request_error', async (_name, body, param) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect(json.error.type).toBe('invalid_request_error');
    expect(typeof json.error.message).toBe('string');
    if (param !== undefined) expect(json.error.param).toBe(param);
  });

  it('a conversation header that is not an id is a 400', async () => {
    const { status, json } = await post(
      JSON.stringify({ model: 'x-terminal', messages: [{ role: 'user', content: 'x' }] }),
      {
        [HEADER]: '../etc',
      },
    );
    expect(status).toBe(400);
    expect(json.error.param).toBe(HEADER);
  });

  it('is in the OpenAPI document with the bearer scheme', async () => {
    const { json } = await server.call('GET', '/openapi.json');
    const document = json as { paths: Record<string, Record<string, { security?: unknown }>> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v1/models', '/v1/chat/completions', '/v1/responses', '/v1/responses/{response_id}']),
    );
    expect(document.paths['/v1/responses']?.post?.security).toEqual([{ sessionApiKey: [] }, { bearerAuth: [] }]);
    expect(document.paths['/v1/chat/completions']?.post?.security).toEqual([{ sessionApiKey: [] }, { bearerAuth: [] }]);
  });
});
