import { startAnthropicServer, startGeminiServer, startResponsesServer, type WireServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, startTestServer, type TestServer, waitForIdle } from './helpers.js';

let server: TestServer;
const wires: WireServer[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  for (const wire of wires) await wire.close();
});

const script = [
  { thinking: 'Think first.', toolCalls: [{ name: 'think', arguments: { thought: 'plan' } }] },
  { thinking: 'Now finish.', toolCalls: [{ name: 'finish', arguments: { message: 'Done on the provider.' } }] },
];

describe('the create body chooses the provider', () => {
  it.each([
    {
      llm: { model: 'anthropic/claude-sonnet-4-6', extended_thinking_budget: 2048, caching_prompt: true },
      start: startAnthropicServer,
    },
    {
      llm: { model: 'gemini-2.5-flash', custom_llm_provider: 'gemini', extended_thinking_budget: 1024 },
      start: startGeminiServer,
    },
  ])('runs $llm.model with the reference option names', async ({ llm, start }) => {
    const wire = await start(script, { apiKey: 'provider-key' });
    wires.push(wire);
    const id = await createConversation(server, {
      agent: { llm: { ...llm, base_url: wire.baseURL, api_key: 'provider-key' } },
      initial_message: { content: [{ type: 'text', text: 'Think, then finish' }] },
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    expect(wire.requests).toHaveLength(2);
    expect(wire.requests.flatMap((request) => request.violations)).toEqual([]);
    const body = JSON.stringify(wire.requests[0]?.body);
    expect(body).toMatch(/"budget_tokens":2048|"thinkingBudget":1024/);
    const final = await server.call('GET', `/api/conversations/${id}/agent_final_response`);
    expect(final.json).toEqual({ response: 'Done on the provider.' });
  });
});

describe('the reference LLM reasoning options', () => {
  it.each(['low', 'xhigh'])('sends reasoning_effort %s and the summary to the Responses API', async (effort) => {
    const wire = await startResponsesServer(script, { apiKey: 'provider-key' });
    wires.push(wire);
    const id = await createConversation(server, {
      agent: {
        llm: {
          model: 'gpt-5.1',
          custom_llm_provider: 'openai-responses',
          reasoning_effort: effort,
          reasoning_summary: 'detailed',
          base_url: wire.baseURL,
          api_key: 'provider-key',
        },
      },
      initial_message: { content: [{ type: 'text', text: 'Think, then finish' }] },
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    expect(wire.requests.flatMap((request) => request.violations)).toEqual([]);
    for (const request of wire.requests)
      expect((request.body as { reasoning?: unknown }).reasoning).toEqual({ effort, summary: 'detailed' });
  });

  it('refuses an effort the reference does not name, naming the field', async () => {
    const refused = await server.call('POST', '/api/conversations', {
      agent: { llm: { model: 'gpt-5.1', reasoning_effort: 'extreme' } },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json)).toContain('reasoning_effort');
  });
});
