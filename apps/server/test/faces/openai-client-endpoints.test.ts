// The gateway's paths as the official `openai` SDK reaches them against a real server: `models.retrieve`, OpenAI's
// 404 for what it does not serve (embeddings, legacy completions, the Responses API's cancel and delete), the `x-request-id` the SDK
// reports as `_request_id` / `requestID` on every answer, errors included, and the `chat.completions.stream()`
// helper assembling the streamed answer and its usage.
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

const REQUEST_ID = /^req_[0-9a-f]{32}$/;

describe('models', () => {
  it('retrieves a configured model, as listed', async () => {
    const model = await client.models.retrieve('x-terminal');
    expect(model).toMatchObject({ id: 'x-terminal', object: 'model', owned_by: 'x' });
    const listed = await client.models.list();
    expect(listed.data).toContainEqual(expect.objectContaining({ id: model.id, created: model.created }));
  });

  it('answers an unknown model with a NotFoundError model_not_found naming the models', async () => {
    const error = await rejectionOf(client.models.retrieve('gpt-4o'));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect((error as Error).message).toContain('x-terminal');
  });
});

describe('what the gateway does not serve', () => {
  it.each<[string, () => PromiseLike<unknown>, string]>([
    ['cancelling a response', () => client.responses.cancel('resp_x'), 'POST /v1/responses/resp_x/cancel'],
    ['deleting a response', () => client.responses.delete('resp_x'), 'DELETE /v1/responses/resp_x'],
    ['embeddings', () => client.embeddings.create({ model: 'x-terminal', input: 'hi' }), 'POST /v1/embeddings'],
    [
      'legacy completions',
      () => client.completions.create({ model: 'x-terminal', prompt: 'hi' }),
      'POST /v1/completions',
    ],
    ['deleting a model', () => client.models.delete('x-terminal'), 'DELETE /v1/models/x-terminal'],
  ])('%s is an OpenAI 404 that names the path and what is served', async (_name, call, path) => {
    const error = await rejectionOf(call());
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'unknown_url', type: 'invalid_request_error' });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('POST /v1/chat/completions');
    expect((error as Error).message).toContain('POST /v1/responses');
  });

  it('still asks for the key first', async () => {
    const stranger = new OpenAI({ apiKey: 'not-the-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const error = await rejectionOf(stranger.embeddings.create({ model: 'x-terminal', input: 'hi' }));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('x-request-id', () => {
  it('names every answer: a completion, a model list, and each differs', async () => {
    server.llm.push(finishReply('one'));
    const completion = await client.chat.completions.create({
      model: 'x-terminal',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion._request_id).toMatch(REQUEST_ID);
    const { response } = await client.models.list().withResponse();
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(response.headers.get('x-request-id')).not.toBe(completion._request_id);
  });

  it('names errors, those of the key check and of body validation included', async () => {
    const unknownModel = await rejectionOf(
      client.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect((unknownModel as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(REQUEST_ID);
    const stranger = new OpenAI({ apiKey: 'not-the-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const unauthorized = await rejectionOf(stranger.models.list());
    expect(unauthorized).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((unauthorized as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(REQUEST_ID);
    const invalid = await rejectionOf(
      client.chat.completions.create({ model: 'x-terminal', messages: [] as OpenAI.ChatCompletionMessageParam[] }),
    );
    expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
    expect((invalid as InstanceType<typeof OpenAI.APIError>).requestID).toMatch(REQUEST_ID);
  });

  it('names a stream', async () => {
    server.llm.push(finishReply('streamed'));
    const { response } = await client.chat.completions
      .create({ model: 'x-terminal', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .withResponse();
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    await response.text();
  });
});

describe('the chat.completions.stream() helper', () => {
  it('assembles the final completion, with the usage and the content events', async () => {
    server.llm.push(finishReply('assembled answer'));
    const runner = client.chat.completions.stream({
      model: 'x-terminal',
      messages: [{ role: 'user', content: 'Stream it' }],
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    runner.on('content', (delta) => deltas.push(delta));
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'assembled answer' });
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(deltas.join('')).toBe('assembled answer');
    expect(await runner.finalContent()).toBe('assembled answer');
  });
});
