import { afterEach, describe, expect, it } from 'vitest';
import { emptyStats, recordStatsResponse } from '../src/llm/metrics.js';
import { createOpenAILLM } from '../src/llm/openai-llm.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';

const userTurn = [{ role: 'user' as const, content: 'hi' }];
let server: ScriptedLLMServer | undefined;

async function serve(script: ScriptedReply[]): Promise<ScriptedLLMServer> {
  server = await startScriptedLLMServer(script);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createOpenAILLM against an OpenAI-compatible server', () => {
  it('returns a plain text reply as an assistant Message with the response id', async () => {
    const { baseURL, requests } = await serve([{ content: 'Hello there.' }]);
    const llm = createOpenAILLM({ model: 'test-model', baseURL, apiKey: 'sk-test' });
    const response = await llm.complete({ messages: userTurn });
    expect(response.id).toBe('chatcmpl-1');
    expect(response.finishReason).toBe('stop');
    expect(response.message).toEqual({
      role: 'assistant',
      content: [{ cache_prompt: false, type: 'text', text: 'Hello there.' }],
      thinking_blocks: [],
    });
    expect(requests).toHaveLength(1);
    // The event-level message is rendered in Chat Completions list form.
    expect(requests[0]).toMatchObject({
      model: 'test-model',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(requests[0]).not.toHaveProperty('tools');
    expect(llm).toMatchObject({ model: 'test-model', usageId: 'default', offline: false });
  });

  it('turns a tool call into a MessageToolCall with origin "completion" and empty content', async () => {
    const { baseURL } = await serve([{ toolCalls: [{ name: 'terminal', arguments: { command: 'ls' } }] }]);
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'sk-test' });
    const response = await llm.complete({ messages: userTurn });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.content).toEqual([]);
    expect(response.message.tool_calls).toEqual([
      { id: 'call_1_0', name: 'terminal', arguments: '{"command":"ls"}', origin: 'completion' },
    ]);
  });

  it('keeps parallel tool calls in order, with the text of the turn and malformed arguments untouched', async () => {
    const { baseURL } = await serve([
      {
        content: 'Two things at once.',
        toolCalls: [
          { name: 'think', arguments: { thought: 'a' } },
          { id: 'custom-id', name: 'finish', arguments: '{"message": "cut off' },
        ],
      },
    ]);
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'sk-test' });
    const { message } = await llm.complete({ messages: userTurn });
    expect(message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Two things at once.' }]);
    expect(message.tool_calls?.map((call) => [call.id, call.name, call.arguments])).toEqual([
      ['call_1_0', 'think', '{"thought":"a"}'],
      ['custom-id', 'finish', '{"message": "cut off'],
    ]);
  });

  it('keeps the reasoning_content a provider returns', async () => {
    const { baseURL } = await serve([{ content: 'Done.', reasoning: 'Let me think.' }]);
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'sk-test' });
    const { message } = await llm.complete({ messages: userTurn });
    expect(message.reasoning_content).toBe('Let me think.');
  });

  it('sends the API key, extra headers, tools and generation options', async () => {
    const { baseURL, requests, requestHeaders } = await serve([{ content: 'ok' }]);
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'finish', description: 'end', parameters: { type: 'object', properties: {} } },
      },
    ];
    const llm = createOpenAILLM({
      model: 'm',
      baseURL,
      apiKey: 'sk-secret-123',
      headers: { 'x-team': 'agents' },
      temperature: 0.2,
      maxOutputTokens: 256,
    });
    await llm.complete({ messages: userTurn, tools });
    expect(requestHeaders[0]?.authorization).toBe('Bearer sk-secret-123');
    expect(requestHeaders[0]?.['x-team']).toBe('agents');
    expect(requests[0]).toMatchObject({ tools, temperature: 0.2, max_completion_tokens: 256 });
  });

  it('reports usage and pricing-based cost, accumulated into metrics per usage id', async () => {
    const usage = {
      prompt_tokens: 1000,
      completion_tokens: 200,
      prompt_tokens_details: { cached_tokens: 400 },
      completion_tokens_details: { reasoning_tokens: 50 },
    };
    const { baseURL } = await serve([
      { content: 'one', usage },
      { content: 'two', usage },
      { content: 'three', usage: { prompt_tokens: 30, completion_tokens: 3 } },
    ]);
    const pricing = { inputPerMillion: 2, outputPerMillion: 10, cachedInputPerMillion: 0.5 };
    const agentLLM = createOpenAILLM({ model: 'big', baseURL, apiKey: 'k', pricing, contextWindow: 128_000 });
    const condenserLLM = createOpenAILLM({ model: 'small', baseURL, apiKey: 'k', usageId: 'condenser' });

    const first = await agentLLM.complete({ messages: userTurn });
    expect(first.usage).toEqual({
      model: 'big',
      prompt_tokens: 1000,
      completion_tokens: 200,
      cache_read_tokens: 400,
      cache_write_tokens: 0,
      reasoning_tokens: 50,
      context_window: 128_000,
      per_turn_token: 1200,
      response_id: 'chatcmpl-1',
    });
    // 600 uncached × $2 + 400 cached × $0.5 + 200 output × $10, per million tokens.
    expect(first.cost).toBeCloseTo((600 * 2 + 400 * 0.5 + 200 * 10) / 1e6, 12);
    expect(first.latencySeconds).toBeGreaterThanOrEqual(0);

    let stats = recordStatsResponse(emptyStats(), agentLLM, first);
    stats = recordStatsResponse(stats, agentLLM, await agentLLM.complete({ messages: userTurn }));
    stats = recordStatsResponse(stats, condenserLLM, await condenserLLM.complete({ messages: userTurn }));

    const agent = stats.usage_to_metrics.default;
    expect(agent?.model_name).toBe('big');
    expect(agent?.accumulated_cost).toBeCloseTo(2 * first.cost, 12);
    expect(agent?.costs).toHaveLength(2);
    expect(agent?.response_latencies.map((latency) => latency.response_id)).toEqual(['chatcmpl-1', 'chatcmpl-2']);
    expect(agent?.accumulated_token_usage).toMatchObject({
      model: 'big',
      prompt_tokens: 2000,
      completion_tokens: 400,
      cache_read_tokens: 800,
      reasoning_tokens: 100,
      context_window: 128_000,
      per_turn_token: 1200,
    });
    const condenser = stats.usage_to_metrics.condenser;
    expect(condenser?.model_name).toBe('small');
    expect(condenser?.accumulated_cost).toBe(0);
    expect(condenser?.costs).toEqual([]);
    expect(condenser?.accumulated_token_usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 3 });
  });

  it('works without an API key against a local base URL', async () => {
    const { baseURL, requestHeaders } = await serve([{ content: 'ok' }]);
    const previous = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const llm = createOpenAILLM({ model: 'm', baseURL });
      await expect(llm.complete({ messages: userTurn })).resolves.toMatchObject({ id: 'chatcmpl-1' });
      expect(requestHeaders[0]?.authorization).toBe('Bearer not-needed');
    } finally {
      if (previous !== undefined) process.env.OPENAI_API_KEY = previous;
    }
  });
});
