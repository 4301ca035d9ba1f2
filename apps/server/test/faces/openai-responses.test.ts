// The gateway's Responses API judged by the official `openai` SDK against a real server (`responses.create` and
// `responses.retrieve`), whose agent uses the scripted OpenAI-protocol model on loopback: a string or item input
// (images included) is run by the agent and answered with its final response as `output_text`, instructions reach its
// system message, `previous_response_id` continues the same conversation, `usage` is what the run spent, and a
// response the server made can be retrieved while an unknown id is OpenAI's 404.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { CONVERSATION_HEADER, rejectionOf, startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The messages of the model's latest request, as the chat completions request carries them. */
const lastMessages = () => (server.llm.requests.at(-1)?.messages ?? []) as { role: string; content: unknown }[];

describe('responses.create', () => {
  it("answers a string input with the agent's final response as output_text, and the run's usage", async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo responses-ran' } }] },
      finishReply('The terminal said responses-ran'),
    );
    const { data, response } = await client.responses
      .create({ model: 'x-terminal', input: 'Run echo responses-ran', metadata: { ticket: 'T-1' } })
      .withResponse();
    expect(data).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'x-terminal',
      metadata: { ticket: 'T-1' },
      error: null,
      previous_response_id: null,
    });
    expect(data.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(data.output_text).toBe('The terminal said responses-ran');
    expect(data.output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'The terminal said responses-ran', annotations: [], logprobs: [] }],
      },
    ]);
    // Two model calls of the scripted model's default usage (10 prompt, 5 completion each).
    expect(data.usage).toEqual({
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 30,
    });
    expect(response.headers.get(CONVERSATION_HEADER)).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('responses-ran');
  });

  it('gives the model the latest user item, its text and image in order, and the system text of instructions', async () => {
    server.llm.push(finishReply('A single pixel.'));
    const data = await client.responses.create({
      model: 'x-terminal',
      instructions: 'Answer in one word.',
      input: [
        { role: 'developer', content: 'Be terse.' },
        { role: 'user', content: 'An earlier question' },
        { type: 'message', role: 'assistant', content: 'An earlier answer' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this picture?' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
          ],
        },
      ],
    });
    expect(data.output_text).toBe('A single pixel.');
    expect(data.instructions).toBe('Answer in one word.');
    const messages = lastMessages();
    expect(messages.filter((message) => message.role === 'user')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
    const system = JSON.stringify(messages.filter((message) => message.role === 'system'));
    expect(system).toContain('Answer in one word.');
    expect(system).toContain('Be terse.');
  });

  it('continues the conversation of previous_response_id, reporting only what the new run spent', async () => {
    server.llm.push(finishReply('Noted: the code word is heron.'));
    const first = await client.responses
      .create({ model: 'x-terminal', instructions: 'Remember things.', input: 'The code word is heron.' })
      .withResponse();
    server.llm.push(finishReply('It was heron.'));
    const second = await client.responses
      .create({
        model: 'x-terminal',
        instructions: 'Remember things.',
        previous_response_id: first.data.id,
        input: [{ role: 'user', content: [{ type: 'input_text', text: 'What was the code word?' }] }],
      })
      .withResponse();
    expect(second.data.output_text).toBe('It was heron.');
    expect(second.data.previous_response_id).toBe(first.data.id);
    expect(second.response.headers.get(CONVERSATION_HEADER)).toBe(first.response.headers.get(CONVERSATION_HEADER));
    // The same conversation: the model saw the first turn and its answer again.
    const seen = JSON.stringify(lastMessages());
    expect(seen).toContain('The code word is heron.');
    expect(seen).toContain('What was the code word?');
    // One model call each: the second response does not count the first run's tokens.
    expect(first.data.usage?.total_tokens).toBe(15);
    expect(second.data.usage).toMatchObject({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });

    server.llm.push(finishReply('Still heron.'));
    const third = await client.responses.create(
      { model: 'x-terminal', previous_response_id: second.data.id, input: 'And now?' },
      { headers: { [CONVERSATION_HEADER]: first.response.headers.get(CONVERSATION_HEADER) as string } },
    );
    expect(third.output_text).toBe('Still heron.');
  });

  it('refuses instructions other than those the continued conversation started with', async () => {
    server.llm.push(finishReply('ok'));
    const first = await client.responses.create({ model: 'x-terminal', instructions: 'Be brief.', input: 'hi' });
    const before = server.llm.requests.length;
    const error = await rejectionOf(
      client.responses.create({
        model: 'x-terminal',
        instructions: 'Be verbose.',
        previous_response_id: first.id,
        input: 'hi again',
      }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ param: 'instructions', code: 'unsupported_value' });
    expect(server.llm.requests.length).toBe(before);
  });

  it('answers an unknown previous_response_id with a NotFoundError, before any run', async () => {
    const before = server.llm.requests.length;
    const error = await rejectionOf(
      client.responses.create({ model: 'x-terminal', previous_response_id: 'resp_unknown', input: 'hi' }),
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
    expect(server.llm.requests.length).toBe(before);
  });
});

describe('responses.retrieve', () => {
  it('returns a response the server made, as it was answered', async () => {
    server.llm.push(finishReply('Kept.'));
    const created = await client.responses.create({ model: 'x-terminal', input: 'Keep this', metadata: { k: 'v' } });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.output_text).toBe('Kept.');
    expect(retrieved).toEqual({ ...created, output_text: 'Kept.' });
    expect(retrieved._request_id).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('answers an id it never made with an OpenAI 404 NotFoundError', async () => {
    const error = await rejectionOf(client.responses.retrieve('resp_0123456789abcdef0123456789abcdef'));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'response_not_found', type: 'invalid_request_error' });
    expect((error as Error).message).toContain('resp_0123456789abcdef0123456789abcdef');
  });

  it('keeps nothing of a response made with store: false', async () => {
    server.llm.push(finishReply('Forgotten.'));
    const created = await client.responses.create({ model: 'x-terminal', input: 'Do not keep this', store: false });
    expect(created.output_text).toBe('Forgotten.');
    expect(await rejectionOf(client.responses.retrieve(created.id))).toBeInstanceOf(OpenAI.NotFoundError);
    const error = await rejectionOf(
      client.responses.create({ model: 'x-terminal', previous_response_id: created.id, input: 'and?' }),
    );
    expect(error).toMatchObject({ status: 404, code: 'previous_response_not_found' });
  });
});
