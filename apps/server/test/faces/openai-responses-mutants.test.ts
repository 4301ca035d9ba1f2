// The edges of the gateway's Responses API, judged by the official `openai` SDK against a real server whose agent uses
// the scripted model on loopback: the values next to each refusal are still answered (no tools, no log
// probabilities, 16 metadata pairs) and those just past it are refused (a function tool choice, one log
// probability, 17 pairs, moderation, empty ids, items with an empty type) before any run; every streamed item event
// names output 0; an empty id is a 400 and a 404 says why a response may be missing; and the OpenAPI document says
// what the routes answer.
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

type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type ApiError = InstanceType<typeof OpenAI.APIError>;

const pairs = (count: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`key${index}`, `value${index}`]));

/** The error `params` are refused with, having checked it is a 400 that ran nothing. */
async function refusal(params: Partial<Params>): Promise<ApiError> {
  const before = server.llm.requests.length;
  const error = await rejectionOf(client.responses.create({ model: 'x-terminal', input: 'hi', ...params } as Params));
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  expect(server.llm.requests.length).toBe(before);
  return error as ApiError;
}

describe('next to a refusal, a request is answered', () => {
  it('with no tools, zero log probabilities, 16 metadata pairs and null options', async () => {
    server.llm.push(finishReply('Still answered.'));
    const response = await client.responses.create({
      model: 'x-terminal',
      input: 'hi',
      tools: [],
      top_logprobs: 0,
      metadata: pairs(16),
      conversation: null,
      prompt: null,
      moderation: null,
      text: { verbosity: 'low' },
    } as Params);
    expect(response.output_text).toBe('Still answered.');
    expect(response.metadata).toEqual(pairs(16));
  });
});

describe("tools sent with tool_choice: 'none'", () => {
  it('are accepted, the answer a message, none of them offered to the model', async () => {
    server.llm.push(finishReply('No tools needed.'));
    const response = await client.responses.create({
      model: 'x-terminal',
      input: 'hi',
      tool_choice: 'none',
      tools: [
        { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false },
        { type: 'web_search' },
      ],
    });
    expect(response.output.map((item) => item.type)).toEqual(['message']);
    expect(response.output_text).toBe('No tools needed.');
    expect(JSON.stringify(server.llm.requests.at(-1)?.tools ?? [])).not.toContain('get_weather');
  });
});

describe('just past it, a request is refused before any run', () => {
  it.each<[string, Partial<Params>, string, string]>([
    [
      'a function the model must call',
      { tool_choice: { type: 'function', name: 'get_weather' } },
      'tool_choice',
      'unsupported_value',
    ],
    ['one top log probability', { top_logprobs: 1 }, 'top_logprobs', 'unsupported_parameter'],
    [
      'moderation',
      { moderation: { model: 'omni-moderation-latest' } } as Partial<Params>,
      'moderation',
      'unsupported_parameter',
    ],
  ])('%s, naming it', async (_name, params, param, code) => {
    expect(await refusal(params)).toMatchObject({ status: 400, param, code, type: 'invalid_request_error' });
  });

  it.each<[string, Partial<Params>, string]>([
    ['17 metadata pairs', { metadata: pairs(17) }, 'metadata'],
    ['an empty model', { model: '' }, 'model'],
    ['an empty previous_response_id', { previous_response_id: '' }, 'previous_response_id'],
  ])('%s, as malformed', async (_name, params, param) => {
    expect(await refusal(params)).toMatchObject({ param });
  });

  it.each<[string, Params['input']]>([
    [
      'an earlier item with an empty type',
      [{ type: '', role: 'user', content: 'x' } as never, { role: 'user', content: 'hi' }],
    ],
    [
      'an earlier message part with an empty type',
      [{ role: 'assistant', content: [{ type: '', text: 'x' }] } as never, { role: 'user', content: 'hi' }],
    ],
  ])('%s, naming the first item', async (_name, input) => {
    expect((await refusal({ input })).param).toMatch(/^input\W0\W/);
  });

  it('background mode, saying what it supports', async () => {
    const error = await refusal({ background: true });
    expect(error.message).toContain("'background' does not support true");
    expect(error.message).toContain('Supported values are: false.');
  });
});

describe('a streamed answer', () => {
  it('puts every item and part event on output 0, content part 0', async () => {
    server.llm.push(finishReply('indexed'));
    const stream = await client.responses.create({ model: 'x-terminal', input: 'Stream it', stream: true });
    const placed: [string, number, number | undefined][] = [];
    for await (const event of stream) {
      if ('output_index' in event) {
        placed.push([event.type, event.output_index, 'content_index' in event ? event.content_index : undefined]);
      }
    }
    expect(placed).toEqual([
      ['response.output_item.added', 0, undefined],
      ['response.content_part.added', 0, 0],
      ['response.output_text.delta', 0, 0],
      ['response.output_text.done', 0, 0],
      ['response.content_part.done', 0, 0],
      ['response.output_item.done', 0, undefined],
    ]);
  });
});

describe('a response the server does not have', () => {
  it('asked for by an empty id is a 400 naming response_id', async () => {
    const error = await rejectionOf(client.responses.retrieve(''));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'response_id' });
  });

  it('is a 404 saying responses made with store: false are not kept, retrieved or continued', async () => {
    const retrieved = (await rejectionOf(client.responses.retrieve('resp_missing'))) as ApiError;
    const continued = (await rejectionOf(
      client.responses.create({ model: 'x-terminal', previous_response_id: 'resp_missing', input: 'hi' }),
    )) as ApiError;
    for (const error of [retrieved, continued]) {
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error.message).toContain('(but those with store: false)');
    }
  });
});

describe('the OpenAPI document', () => {
  type Operation = {
    description?: string;
    requestBody?: { content: Record<string, { schema: { description?: string } }> };
    responses: Record<string, { content?: Record<string, { schema: { description?: string } }> }>;
  };

  it('describes the create body, its streamed answer, and which responses are not kept', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const create = document.paths['/v1/responses']?.post;
    expect(create?.description).toContain('(newest 1000, but those with `store: false`)');
    expect(create?.requestBody?.content['application/json']?.schema.description).toContain(
      'the agent answers the latest user message of `input`',
    );
    expect(create?.responses['200']?.content?.['application/json']?.schema.description).toContain(
      'with `stream: true`, text/event-stream',
    );
    const retrieve = document.paths['/v1/responses/{response_id}']?.get;
    expect(retrieve?.description).toContain('A response made with `store: false`');
  });
});
