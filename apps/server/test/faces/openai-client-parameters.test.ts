// What the OpenAI-compatible gateway does with the parts of a Chat Completions request it cannot honour, judged by
// the official `openai` SDK against a real server: each is refused as OpenAI refuses what a model does not support
// (a BadRequestError, code `unsupported_value` / `unsupported_parameter`, the field in `param`) before any run
// starts (tools the model could call, token limits and stored completions too); what only tunes sampling is accepted
// and ignored; and a chat whose last turn is a tool result is refused
// rather than answered by repeating the user message before it.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const user = [{ role: 'user' as const, content: 'What is in the workspace?' }];
const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('parameters the gateway cannot honour are OpenAI 400s', () => {
  it.each<[string, Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>, string, string]>([
    ['several choices', { n: 2 }, 'n', 'unsupported_value'],
    ['log probabilities', { logprobs: true }, 'logprobs', 'unsupported_parameter'],
    ['top log probabilities', { top_logprobs: 3 }, 'top_logprobs', 'unsupported_parameter'],
    [
      'a JSON schema answer',
      { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } },
      'response_format',
      'unsupported_value',
    ],
    ['a JSON object answer', { response_format: { type: 'json_object' } }, 'response_format', 'unsupported_value'],
    ['an audio answer', { modalities: ['text', 'audio'] }, 'modalities', 'unsupported_value'],
    ['audio options', { audio: { voice: 'alloy', format: 'wav' } }, 'audio', 'unsupported_parameter'],
    ['a required tool call', { tools: [weatherTool], tool_choice: 'required' }, 'tool_choice', 'unsupported_value'],
    [
      'a named tool call',
      { tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_weather' } } },
      'tool_choice',
      'unsupported_value',
    ],
    // The model is never shown the client's tools, so 'auto' could not let it choose one (as on the Responses face).
    ['tools the model may call', { tools: [weatherTool], tool_choice: 'auto' }, 'tools', 'unsupported_parameter'],
    ['tools with no tool_choice', { tools: [weatherTool] }, 'tools', 'unsupported_parameter'],
    [
      'deprecated functions',
      { functions: [{ name: 'get_weather', parameters: { type: 'object' } }] },
      'functions',
      'unsupported_parameter',
    ],
    ['a token limit', { max_tokens: 100 }, 'max_tokens', 'unsupported_parameter'],
    ['a completion token limit', { max_completion_tokens: 100 }, 'max_completion_tokens', 'unsupported_parameter'],
    ['a stored completion', { store: true }, 'store', 'unsupported_value'],
    // OpenAI takes metadata only with store: true (a label of the stored completion), which the gateway refuses.
    ['metadata without store', { metadata: { ticket: 'T-1' } }, 'metadata', 'invalid_value'],
    ['metadata with store: false', { metadata: { ticket: 'T-1' }, store: false }, 'metadata', 'invalid_value'],
    ['a web search', { web_search_options: {} }, 'web_search_options', 'unsupported_parameter'],
    [
      'a web search near a place',
      { web_search_options: { search_context_size: 'low', user_location: { type: 'approximate', approximate: {} } } },
      'web_search_options',
      'unsupported_parameter',
    ],
    ['a banned token', { logit_bias: { '50256': -100 } }, 'logit_bias', 'unsupported_parameter'],
    // The agent's model may call several of the agent's tools in one step, as on the Responses face.
    ['one tool call at a time', { parallel_tool_calls: false }, 'parallel_tool_calls', 'unsupported_value'],
  ])('%s', async (_name, extra, param, code) => {
    const before = server.llm.requests.length;
    const error = await rejectionOf(client.chat.completions.create({ model: 'x-terminal', messages: user, ...extra }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param, code, type: 'invalid_request_error' });
    expect((error as Error).message).toContain(param);
    // Refused before a run: the model was never asked.
    expect(server.llm.requests.length).toBe(before);
  });

  it('refuses them when streaming too, before the stream starts', async () => {
    const error = await rejectionOf(
      client.chat.completions.create({ model: 'x-terminal', messages: user, n: 3, stream: true }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'n', code: 'unsupported_value' });
  });

  it('accepts what only tunes sampling or labels the request, and tools it asks no call of, and answers as usual', async () => {
    server.llm.push(finishReply('Two files.'));
    const completion = await client.chat.completions.create({
      model: 'x-terminal',
      messages: user,
      n: 1,
      temperature: 0.2,
      response_format: { type: 'text' },
      modalities: ['text'],
      tools: [{ ...weatherTool, function: { ...weatherTool.function, strict: true } }],
      tool_choice: 'none',
      functions: [{ name: 'get_weather' }],
      function_call: 'none',
      logprobs: false,
      top_logprobs: 0,
      user: 'user-1',
      safety_identifier: 'hashed-user-1',
      logit_bias: {},
      metadata: null,
      store: false,
      seed: 7,
      stop: ['\n\n'],
      parallel_tool_calls: true,
    });
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]?.message.content).toBe('Two files.');
  });
});

describe('a refusal says what the gateway takes instead', () => {
  it.each<[string, Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>, RegExp]>([
    [
      'store: true',
      { store: true },
      /^400 Unsupported value: 'store' does not support true: .*Supported values are: false\.$/,
    ],
    ['n: 2', { n: 2 }, /^400 Unsupported value: 'n' does not support 2: .*Supported values are: 1\.$/],
    // Where the limit is set instead: the agent's configuration, per model call.
    [
      'max_tokens',
      { max_tokens: 50 },
      /^400 Unsupported parameter: 'max_tokens' is not supported: .*llm\.max_output_tokens/,
    ],
    ['tools', { tools: [weatherTool] }, /^400 Unsupported parameter: 'tools' .*tool_choice: 'none'/],
    ['metadata', { metadata: { k: 'v' } }, /^400 The 'metadata' parameter is only allowed when 'store' is enabled/],
  ])('%s', async (_name, extra, message) => {
    const error = await rejectionOf(client.chat.completions.create({ model: 'x-terminal', messages: user, ...extra }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('a chat whose last turn is not a user message', () => {
  const toolTurn: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'user', content: 'What is the weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
  ];

  it('is refused, naming the first message after the last user message, instead of asking again', async () => {
    const before = server.llm.requests.length;
    const error = await rejectionOf(client.chat.completions.create({ model: 'x-terminal', messages: toolTurn }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'messages[1].role', code: 'unsupported_value' });
    expect(server.llm.requests.length).toBe(before);
  });

  it('is answered when a user message follows: earlier assistant tool calls and tool results are history', async () => {
    server.llm.push(finishReply('Sunny, then.'));
    const completion = await client.chat.completions.create({
      model: 'x-terminal',
      messages: [...toolTurn, { role: 'user', content: 'So, should I take an umbrella?' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Sunny, then.');
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('umbrella');
  });
});
