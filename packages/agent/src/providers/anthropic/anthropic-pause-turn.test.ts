import type { Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { LLMIncompleteResponseError } from '../../llm/errors/llm-incomplete-response-error.js';
import type { LLMRequest, LLMResponse } from '../../llm/llm.js';
import {
  startAnthropicServer,
  type WireReply,
  type WireReplyFunction,
  type WireServer,
} from '../../testing/wire/index.js';
import { createAnthropicLLM } from './anthropic-llm.js';
import { maxPauseContinuations } from './anthropic-pause.js';

/** Anthropic pauses a long turn (`stop_reason: "pause_turn"`): the client sends it back so the model goes on. */

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const question: Message = {
  role: 'user',
  content: [{ cache_prompt: false, type: 'text', text: 'Find it.' }],
  thinking_blocks: [],
};

async function llmAnswering(script: WireReply[] | WireReplyFunction) {
  server = await startAnthropicServer(script);
  return createAnthropicLLM({
    model: 'anthropic/claude-sonnet-4-6',
    baseURL: server.baseURL,
    apiKey: 'sk-ant-test',
    maxRetries: 0,
    // No cache marks: the server's cache simulation would move tokens between the counts summed here.
    promptCaching: false,
  });
}

function lastTurn(request: { body: Record<string, unknown> } | undefined) {
  const messages = request?.body.messages as { role: string; content: unknown }[];
  return messages[messages.length - 1];
}

describe.each([false, true])('a paused Anthropic answer (streaming: %s)', (stream) => {
  const deltas: string[] = [];
  const ask = (llm: Awaited<ReturnType<typeof llmAnswering>>): Promise<LLMResponse> => {
    deltas.length = 0;
    const request: LLMRequest = {
      messages: [question],
      ...(stream && { onDelta: (delta) => deltas.push(delta.content ?? '') }),
    };
    return llm.complete(request);
  };

  it('is continued with the paused content as the assistant turn, and the parts come back as one answer', async () => {
    const llm = await llmAnswering([
      { text: 'Searching. ', stopReason: 'pause_turn', usage: { input: 10, output: 3 } },
      { text: 'Found it.', usage: { input: 15, output: 4 } },
    ]);
    const response = await ask(llm);
    expect(response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Searching. Found it.' }]);
    expect(response).toMatchObject({ id: 'msg_1', finishReason: 'stop', providerFinishReason: 'end_turn' });
    expect(response.usage).toMatchObject({ prompt_tokens: 25, completion_tokens: 7 });
    const wire = server as WireServer;
    expect(wire.requests.map((request) => request.violations)).toEqual([[], []]);
    expect(lastTurn(wire.requests[1])).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Searching. ' }],
    });
    if (stream) expect(deltas.join('')).toBe('Searching. Found it.');
  });

  it('sends back everything answered so far after each of several pauses, and ends on the tool call', async () => {
    const llm = await llmAnswering([
      { text: 'one ', stopReason: 'pause_turn' },
      { text: 'two ', stopReason: 'pause_turn' },
      { toolCalls: [{ id: 'toolu_read', name: 'read', arguments: { path: 'a' } }] },
    ]);
    const response = await ask(llm);
    expect(response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'one two ' }]);
    expect(response.message.tool_calls).toEqual([
      { id: 'toolu_read', name: 'read', arguments: '{"path":"a"}', origin: 'completion' },
    ]);
    expect(response).toMatchObject({ finishReason: 'tool_calls', providerFinishReason: 'tool_use' });
    const wire = server as WireServer;
    expect(wire.requests.flatMap((request) => request.violations)).toEqual([]);
    expect(lastTurn(wire.requests[2])).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'one ' },
        { type: 'text', text: 'two ' },
      ],
    });
  });

  it("sends back a server tool's blocks unchanged, and never takes them for the agent's tool calls", async () => {
    const search = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x releases' } };
    const results = {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [{ type: 'web_search_result', url: 'https://example.com', title: 'x', encrypted_content: 'abc' }],
    };
    const llm = await llmAnswering([
      { anthropicBlocks: [search], stopReason: 'pause_turn' },
      { anthropicBlocks: [results], text: 'Version 2 is out.' },
    ]);
    const response = await ask(llm);
    expect(response.message.tool_calls).toBeUndefined();
    expect(response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Version 2 is out.' }]);
    expect(response).toMatchObject({ finishReason: 'stop', providerFinishReason: 'end_turn' });
    const wire = server as WireServer;
    expect(wire.requests.flatMap((request) => request.violations)).toEqual([]);
    expect(lastTurn(wire.requests[1])).toEqual({ role: 'assistant', content: [search] });
  });

  it('refuses an answer paused past the continuation limit with a typed error', async () => {
    const llm = await llmAnswering(() => ({ text: 'still going ', stopReason: 'pause_turn' }));
    const failure = await ask(llm).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LLMIncompleteResponseError);
    expect((failure as LLMIncompleteResponseError).code).toBe('llm_incomplete_response');
    expect((failure as Error).message).toContain(`at most ${maxPauseContinuations} times`);
    expect(server?.requests).toHaveLength(maxPauseContinuations + 1);
  });
});
