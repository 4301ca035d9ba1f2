// Every path under the gateway's `/v1` that it does not serve is OpenAI's 404 (`unknown_url`, naming the path and what
// is served), which the official `openai` SDK raises as a NotFoundError, whatever the request carries: an upload
// (multipart, as `files.create` and `audio.transcriptions.create` send), a body that is not JSON, malformed or too
// large, or a method no route takes. The body of such a request is never what is wrong with it. An empty id in a
// served path is a 400 naming the path parameter, as a bad body field is named.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, type TestServer } from '../helpers.js';
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

type ApiError = InstanceType<typeof OpenAI.APIError>;

function expectUnknownUrl(error: unknown, path: string): void {
  expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  expect(error).toMatchObject({ code: 'unknown_url', type: 'invalid_request_error', param: null });
  expect((error as ApiError).message).toContain(`Invalid URL (${path});`);
  expect((error as ApiError).message).toContain('POST /v1/chat/completions');
}

describe('an SDK upload to a path the gateway does not serve', () => {
  it('files.create is a NotFoundError naming POST /v1/files', async () => {
    const file = await toFile(Buffer.from('{"prompt":"hi"}\n'), 'batch.jsonl');
    expectUnknownUrl(await rejectionOf(client.files.create({ file, purpose: 'batch' })), 'POST /v1/files');
  });

  it('audio.transcriptions.create is a NotFoundError naming POST /v1/audio/transcriptions', async () => {
    const file = await toFile(Buffer.from('not really audio'), 'speech.mp3');
    expectUnknownUrl(
      await rejectionOf(client.audio.transcriptions.create({ file, model: 'whisper-1' })),
      'POST /v1/audio/transcriptions',
    );
  });
});

/** The status and OpenAI error body of a request with the gateway's key. */
async function answer(
  method: string,
  path: string,
  init: { contentType?: string; body?: string } = {},
): Promise<{ status: number; error: Record<string, unknown> | undefined }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${GATEWAY_KEY}`,
      ...(init.contentType === undefined ? {} : { 'content-type': init.contentType }),
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  return { status: response.status, error: text === '' ? undefined : JSON.parse(text).error };
}

describe('a request to a path the gateway does not serve', () => {
  it.each<[string, { contentType?: string; body?: string }]>([
    ['a text body', { contentType: 'text/plain', body: 'hi' }],
    ['a malformed JSON body', { contentType: 'application/json', body: '{"model":' }],
    ['a JSON body over the body limit', { contentType: 'application/json', body: `"${'x'.repeat(1024 * 1024)}"` }],
  ])('with %s is the 404, not a refusal of its body', async (_name, init) => {
    const { status, error } = await answer('POST', '/v1/embeddings', init);
    expect(status).toBe(404);
    expect(error).toMatchObject({ code: 'unknown_url', type: 'invalid_request_error' });
    expect(error?.message).toContain('Invalid URL (POST /v1/embeddings);');
  });

  it.each([
    ['OPTIONS', '/v1/chat/completions'],
    ['QUERY', '/v1/models'],
    ['PATCH', '/v1/responses/resp_x'],
  ])('%s %s is the 404 too', async (method, path) => {
    const { status, error } = await answer(method, path);
    expect(status).toBe(404);
    expect(error).toMatchObject({ code: 'unknown_url', message: expect.stringContaining(`(${method} ${path});`) });
  });

  it('still asks for the key before anything else', async () => {
    const stranger = new OpenAI({ apiKey: 'not-the-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const file = await toFile(Buffer.from('{}\n'), 'batch.jsonl');
    const error = await rejectionOf(stranger.files.create({ file, purpose: 'batch' }));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('a served path with an empty id', () => {
  it.each<[string, () => PromiseLike<unknown>, string]>([
    ['models.retrieve', () => client.models.retrieve(''), 'model'],
    ['responses.retrieve', () => client.responses.retrieve(''), 'response_id'],
  ])('%s is a BadRequestError naming the path parameter, in OpenAI terms', async (_name, call, param) => {
    const error = await rejectionOf(call());
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param, code: 'invalid_request', type: 'invalid_request_error' });
    expect((error as ApiError).message).toMatch(new RegExp(`^400 Invalid path parameter: ${param}: `));
  });
});
