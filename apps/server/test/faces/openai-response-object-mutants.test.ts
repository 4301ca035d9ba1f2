// The Response object the gateway answers, as the official `openai` SDK reads it against a real server whose agent uses
// the scripted model on loopback: what it echoes of the request and OpenAI's defaults for what it does not take
// (parallel tool calls allowed, not background, tool choice `auto`, no tools, text format), in progress and then
// completed, and the same once retrieved.
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, removeDir, type TestServer } from '../helpers.js';
import { startGateway } from '../support/openai-gateway.js';

let server: TestServer;
let client: OpenAI;

beforeAll(async () => {
  ({ server, client } = await startGateway());
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const DEFAULTS = {
  object: 'response',
  incomplete_details: null,
  parallel_tool_calls: true,
  background: false,
  tool_choice: 'auto',
  tools: [],
  temperature: null,
  top_p: null,
  text: { format: { type: 'text' } },
};

describe('a response', () => {
  it("echoes the request and OpenAI's defaults, in progress and completed", async () => {
    server.llm.push(finishReply('Echoed.'));
    const stream = await client.responses.create({
      model: 'x-terminal',
      input: 'hi',
      instructions: 'Be terse.',
      metadata: { ticket: 'T-9' },
      stream: true,
    });
    const responses: Record<string, OpenAI.Responses.Response> = {};
    for await (const event of stream) if ('response' in event) responses[event.type] = event.response;
    const echoed = {
      ...DEFAULTS,
      model: 'x-terminal',
      instructions: 'Be terse.',
      metadata: { ticket: 'T-9' },
      store: true,
    };
    expect(responses['response.created']).toMatchObject({
      ...echoed,
      status: 'in_progress',
      completed_at: null,
      usage: null,
      output: [],
    });
    const completed = responses['response.completed'];
    expect(completed).toMatchObject({ ...echoed, status: 'completed', error: null, output_text: 'Echoed.' });
    expect(completed?.completed_at).toBeGreaterThanOrEqual(completed?.created_at ?? Number.POSITIVE_INFINITY);
    expect(await client.responses.retrieve(completed?.id ?? '')).toMatchObject({ ...echoed, status: 'completed' });
  });

  it('made with store: false says so, and has no instructions when none were sent', async () => {
    server.llm.push(finishReply('Not kept.'));
    const response = await client.responses.create({ model: 'x-terminal', input: 'hi', store: false });
    expect(response).toMatchObject({ ...DEFAULTS, store: false, instructions: null, metadata: {} });
  });
});
