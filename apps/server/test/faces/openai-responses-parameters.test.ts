// What the gateway's Responses API refuses, judged by the official `openai` SDK against a real server: parameters it
// cannot honour are OpenAI 400s naming the parameter (as the chat face's), before any run starts; input it cannot take
// (no user message, a function call's output to answer, an image by file id) likewise; retrieving as a stream is
// refused; a wrong key is an AuthenticationError; and every answer carries an `x-request-id`.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { GATEWAY_KEY, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;
const REQUEST_ID = /^req_[0-9a-f]{32}$/;
const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
};

/** Expects `params` refused with a 400 naming `param`, before the model was asked anything. */
async function expectRefused(params: Partial<Params>, param: string, code: string): Promise<void> {
  const before = server.llm.requests.length;
  const error = await rejectionOf(client.responses.create({ model: 'x-terminal', input: 'hi', ...params } as Params));
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  expect(error).toMatchObject({ status: 400, param, code, type: 'invalid_request_error' });
  expect((error as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(REQUEST_ID);
  expect(server.llm.requests.length).toBe(before);
}

describe('parameters the gateway cannot honour are OpenAI 400s', () => {
  it.each<[string, Partial<Params>, string, string]>([
    ['function tools', { tools: [weatherTool] }, 'tools', 'unsupported_parameter'],
    ['a hosted tool', { tools: [{ type: 'web_search' }] }, 'tools', 'unsupported_parameter'],
    ['a required tool call', { tool_choice: 'required' }, 'tool_choice', 'unsupported_value'],
    ['background mode', { background: true }, 'background', 'unsupported_value'],
    [
      'a JSON schema answer',
      { text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } } },
      'text.format',
      'unsupported_value',
    ],
    ['top log probabilities', { top_logprobs: 3 }, 'top_logprobs', 'unsupported_parameter'],
    ['log probabilities included', { include: ['message.output_text.logprobs'] }, 'include[0]', 'unsupported_value'],
    ['an OpenAI conversation', { conversation: 'conv_123' }, 'conversation', 'unsupported_parameter'],
    ['a stored prompt', { prompt: { id: 'pmpt_123' } }, 'prompt', 'unsupported_parameter'],
    ['an output token limit', { max_output_tokens: 100 }, 'max_output_tokens', 'unsupported_parameter'],
    // OpenAI ignores the calls past the bound and still answers; the agent's run cannot, so it is not promised.
    ['a tool call limit', { max_tool_calls: 2 } as Partial<Params>, 'max_tool_calls', 'unsupported_parameter'],
    ['no tool calls at all', { max_tool_calls: 0 } as Partial<Params>, 'max_tool_calls', 'unsupported_parameter'],
  ])('%s', async (_name, params, param, code) => {
    await expectRefused(params, param, code);
  });

  it('refuses them when streaming too, before the stream starts', async () => {
    const error = await rejectionOf(
      client.responses.create({ model: 'x-terminal', input: 'hi', background: true, stream: true }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'background', code: 'unsupported_value' });
  });

  it('accepts what only tunes sampling and answers as usual', async () => {
    server.llm.push(finishReply('Tuned.'));
    const response = await client.responses.create({
      model: 'x-terminal',
      input: 'hi',
      temperature: 0.2,
      text: { format: { type: 'text' } },
      tools: [],
      tool_choice: 'auto',
      background: false,
      store: true,
      truncation: 'auto',
    });
    expect(response.output_text).toBe('Tuned.');
  });
});

describe('input the gateway cannot take', () => {
  it.each<[string, Params['input'], string, string]>([
    ['no user message', [{ role: 'system', content: 'only this' }], 'input', 'invalid_request'],
    ['no input at all', undefined, 'input', 'invalid_request'],
    [
      "a function call's output after the last user message",
      [
        { role: 'user', content: 'What is the weather in Paris?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
      'input[1]',
      'unsupported_value',
    ],
    [
      'an image by file id',
      [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-abc', detail: 'auto' }] }],
      'input[0].content[0].file_id',
      'unsupported_value',
    ],
    [
      'a file',
      [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-abc' }] }],
      'input[0].content[0].type',
      'unsupported_value',
    ],
  ])('%s is a 400 naming where', async (_name, input, param, code) => {
    await expectRefused({ input }, param, code);
  });

  it('takes earlier function calls and their outputs as history when a user message follows', async () => {
    server.llm.push(finishReply('Sunny, then.'));
    const response = await client.responses.create({
      model: 'x-terminal',
      input: [
        { role: 'user', content: 'What is the weather in Paris?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        { role: 'user', content: 'So, should I take an umbrella?' },
      ],
    });
    expect(response.output_text).toBe('Sunny, then.');
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('umbrella');
  });

  it('an unknown model is a NotFoundError naming the models', async () => {
    const error = await rejectionOf(client.responses.create({ model: 'gpt-4o', input: 'hi' }));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((error as Error).message).toContain('x-terminal');
  });

  it('malformed metadata is a 400 naming it', async () => {
    const error = await rejectionOf(
      client.responses.create({ model: 'x-terminal', input: 'hi', metadata: { key: 'v'.repeat(513) } }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).param).toBe('metadata.key');
  });
});

describe('retrieving', () => {
  it('as a stream is refused: the gateway keeps no events to replay', async () => {
    server.llm.push(finishReply('kept'));
    const created = await client.responses.create({ model: 'x-terminal', input: 'hi' });
    const error = await rejectionOf(client.responses.retrieve(created.id, { stream: true }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'stream', code: 'unsupported_parameter' });
  });
});

describe('the session key', () => {
  const stranger = () => new OpenAI({ apiKey: 'not-the-key', baseURL: `${server.url}/v1`, maxRetries: 0 });

  it('is asked for first: creating and retrieving without it are AuthenticationErrors, nothing run', async () => {
    server.llm.push(finishReply('secret'));
    const made = await client.responses.create({ model: 'x-terminal', input: 'hi' });
    const before = server.llm.requests.length;
    for (const call of [
      () => stranger().responses.create({ model: 'x-terminal', input: 'hi' }),
      () => stranger().responses.create({ model: 'x-terminal', input: 'hi', stream: true }),
      () => stranger().responses.retrieve(made.id),
    ]) {
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error).toMatchObject({ code: 'invalid_api_key' });
      expect((error as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(REQUEST_ID);
    }
    expect(server.llm.requests.length).toBe(before);
  });

  it('is taken as X-Session-API-Key too', async () => {
    server.llm.push(finishReply('by header'));
    const { status, json } = await server.call(
      'POST',
      '/v1/responses',
      { model: 'x-terminal', input: 'hi' },
      { 'X-Session-API-Key': GATEWAY_KEY },
    );
    expect(status).toBe(200);
    expect((json as { output_text: string }).output_text).toBe('by header');
  });
});
