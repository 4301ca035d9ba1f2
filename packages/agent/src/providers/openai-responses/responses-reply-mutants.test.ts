import { afterEach, describe, expect, it } from 'vitest';
import type { LLMResponse } from '../../llm/llm.js';
import { type LoopbackServer, listenOnLoopback } from '../../testing/internal/loopback-server.js';
import { startResponsesServer, type WireServer } from '../../testing/wire/index.js';
import { createOpenAIResponsesLLM } from './responses-llm.js';

// Responses API replies the scripted wire server does not produce (refusals, content filters, several reasoning
// items, reasoning text), served verbatim on loopback and read through the openai client.
const userTurn = [{ role: 'user' as const, content: 'hi' }];
let raw: LoopbackServer | undefined;
let wire: WireServer | undefined;

afterEach(async () => {
  await raw?.close();
  await wire?.close();
  raw = undefined;
  wire = undefined;
});

const usage = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 60 },
  output_tokens: 30,
  output_tokens_details: { reasoning_tokens: 20 },
  total_tokens: 130,
};

async function reply(output: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<LLMResponse> {
  const body = { id: 'resp_raw', object: 'response', status: 'completed', output, usage, ...extra };
  raw = await listenOnLoopback(
    async (request, response) => {
      for await (const _ of request);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    },
    (response) => response.destroy(),
  );
  const llm = createOpenAIResponsesLLM({ model: 'gpt-4.1', baseURL: `http://127.0.0.1:${raw.port}/v1`, apiKey: 'k' });
  return llm.complete({ messages: userTurn });
}

const message = (content: Record<string, unknown>[]) => ({ type: 'message', id: 'msg_1', role: 'assistant', content });

describe('Responses replies read through the openai client', () => {
  it('keeps a refusal as text, drops empty text, and adds no tool_calls to a text-only turn', async () => {
    const response = await reply([
      message([
        { type: 'output_text', text: '', annotations: [] },
        { type: 'refusal', refusal: 'I cannot help with that.' },
      ]),
    ]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: [{ cache_prompt: false, type: 'text', text: 'I cannot help with that.' }],
      thinking_blocks: [],
    });
    expect(response).toMatchObject({ finishReason: 'stop', providerFinishReason: 'completed' });
  });

  it('keeps the first reasoning item whole (content, status) and ignores later reasoning and unknown items', async () => {
    const response = await reply([
      { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Plan.' }],
        content: [{ type: 'reasoning_text', text: 'Step one.' }],
        encrypted_content: 'enc_1',
        status: 'completed',
      },
      { type: 'reasoning', id: 'rs_2', summary: [{ type: 'summary_text', text: 'Other.' }] },
      message([{ type: 'output_text', text: 'Done.', annotations: [] }]),
    ]);
    expect(response.message.responses_reasoning_item).toEqual({
      id: 'rs_1',
      summary: ['Plan.'],
      content: ['Step one.'],
      encrypted_content: 'enc_1',
      status: 'completed',
    });
    expect(response.message.reasoning_content).toBe('Plan.\nStep one.');
  });

  it('keeps a summary-less encrypted reasoning item without inventing content or reasoning_content', async () => {
    const response = await reply([
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc_1' },
      message([{ type: 'output_text', text: 'Hi.', annotations: [] }]),
    ]);
    expect(response.message.responses_reasoning_item).toEqual({ id: 'rs_1', summary: [], encrypted_content: 'enc_1' });
    expect(response.message).not.toHaveProperty('reasoning_content');
  });

  it('turns a single function call into a tool call keyed by call_id, keeping the item id', async () => {
    const response = await reply([
      { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'terminal', arguments: '{"command":"ls"}' },
    ]);
    expect(response.message.tool_calls).toEqual([
      { id: 'call_a', responses_item_id: 'fc_1', name: 'terminal', arguments: '{"command":"ls"}', origin: 'responses' },
    ]);
    expect(response).toMatchObject({ finishReason: 'tool_calls', providerFinishReason: 'tool_calls' });
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content_filter'],
  ])('maps an incomplete reply (%s) to finish reason %s', async (reason, mapped) => {
    const response = await reply([message([{ type: 'output_text', text: 'Partial', annotations: [] }])], {
      status: 'incomplete',
      incomplete_details: { reason },
    });
    expect(response).toMatchObject({ finishReason: mapped, providerFinishReason: reason });
  });

  it('reads usage with cached and reasoning tokens', async () => {
    const response = await reply([message([{ type: 'output_text', text: 'ok', annotations: [] }])]);
    expect(response.usage).toMatchObject({
      prompt_tokens: 100,
      completion_tokens: 30,
      cache_read_tokens: 60,
      reasoning_tokens: 20,
      response_id: 'resp_raw',
    });
  });

  it('reports a truncated reply of the wire server as length, streamed or not', async () => {
    for (const stream of [false, true]) {
      wire = await startResponsesServer([{ text: 'cut', truncated: true }]);
      const llm = createOpenAIResponsesLLM({ model: 'gpt-4.1', baseURL: wire.baseURL, apiKey: 'k', stream });
      const response = await llm.complete({ messages: userTurn });
      expect(response).toMatchObject({ finishReason: 'length', providerFinishReason: 'max_output_tokens' });
      await wire.close();
      wire = undefined;
    }
  });
});
