// The errors of the gateway's HTTP layer as the official `openai` SDK reads them against real servers on 127.0.0.1: a
// body that fails its schema names the field in `param` as OpenAI does (items by index in brackets, as the face's own
// errors); a path the gateway does not serve is named without its query, and left out of the OpenAPI document, which
// describes the model routes; and a server with no models configured lists none and says so when one is asked for.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { GATEWAY_KEY, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;
/** A server with no models and a small body limit. */
let bare: TestServer;
let bareClient: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
  bare = await startTestServer({ config: { apiKeys: [GATEWAY_KEY], bodyLimit: 4096 } });
  bareClient = new OpenAI({ apiKey: GATEWAY_KEY, baseURL: `${bare.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
  await bare.stop();
  await removeDir(bare.dataDir);
});

type ApiError = InstanceType<typeof OpenAI.APIError>;

async function malformed(call: PromiseLike<unknown>): Promise<ApiError> {
  const before = server.llm.requests.length;
  const error = await rejectionOf(call);
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  expect(server.llm.requests.length).toBe(before);
  return error as ApiError;
}

describe('a body that fails its schema', () => {
  it('names a message field with its index in brackets, as OpenAI does', async () => {
    const error = await malformed(
      client.chat.completions.create({
        model: 'x-terminal',
        messages: [{ role: 'user', content: 'hi' }, { role: 'robot', content: 'beep' } as never],
      }),
    );
    expect(error).toMatchObject({ param: 'messages[1].role', type: 'invalid_request_error', code: 'invalid_request' });
    expect(error.message).toContain('Invalid request body: messages[1].role: ');
  });

  it('names a nested field by dots', async () => {
    const error = await malformed(
      client.chat.completions.create({
        model: 'x-terminal',
        messages: [{ role: 'user', content: 'hi' }],
        stream_options: { include_usage: 'yes' as never },
      }),
    );
    expect(error).toMatchObject({ param: 'stream_options.include_usage' });
  });

  it('names the body itself by no param', async () => {
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
      body: '"just a string"',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { param: unknown; message: string } };
    expect(body.error.param).toBeNull();
    expect(body.error.message).toMatch(/^Invalid request body: body: /);
  });
});

describe('the model routes', () => {
  it('name an unserved path without its query string', async () => {
    const response = await fetch(`${server.url}/v1/embeddings?api-version=2024-10-21`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('unknown_url');
    expect(body.error.message).toContain('Invalid URL (POST /v1/embeddings);');
  });

  it('are described in the OpenAPI document, the catch-all for other paths left out', async () => {
    type Operation = { responses: Record<string, { content?: Record<string, { schema: { description?: string } }> }> };
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    expect(
      Object.keys(document.paths)
        .filter((path) => path.startsWith('/v1/'))
        .sort(),
    ).toEqual([
      '/v1/chat/completions',
      '/v1/models',
      '/v1/models/{model}',
      '/v1/responses',
      '/v1/responses/{response_id}',
    ]);
    const described = (path: string) =>
      document.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema.description;
    expect(described('/v1/models')).toBe('The models (configured agents) a chat completion can name');
    expect(described('/v1/models/{model}')).toBe('A model (configured agent) a chat completion can name');
  });
});

describe('a server with no models configured', () => {
  it('lists none, and answers a model asked for with a NotFoundError saying none is configured', async () => {
    expect((await bareClient.models.list()).data).toEqual([]);
    const error = await rejectionOf(
      bareClient.chat.completions.create({ model: 'x-terminal', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((error as Error).message).toContain("The model 'x-terminal' does not exist: GET /v1/models lists none");
  });
});

describe("the server's own refusals of a body", () => {
  const post = async (url: string, body: string, contentType: string) => {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': contentType },
      body,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('a body that is not JSON is a 415 in OpenAI error shape, a client error with its code', async () => {
    const { status, json } = await post(server.url, '<chat/>', 'application/xml');
    expect(status).toBe(415);
    expect(json).toEqual({
      error: {
        message: 'The request body must be JSON (Content-Type: application/json)',
        type: 'invalid_request_error',
        param: null,
        code: 'unsupported_media_type',
      },
    });
  });

  it('a body over the limit is a 413', async () => {
    const { status, json } = await post(
      bare.url,
      JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'x'.repeat(8192) }] }),
      'application/json',
    );
    // OpenAI's kind of code and the limit, not Fastify's internal FST_ERR_CTP_BODY_TOO_LARGE.
    expect(status).toBe(413);
    expect(json).toEqual({
      error: {
        message: expect.stringMatching(/^The request body is larger than this server's limit of \d+ bytes$/),
        type: 'invalid_request_error',
        param: null,
        code: 'request_too_large',
      },
    });
  });
});
