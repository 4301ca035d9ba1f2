import type { Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type WireReply, type WireServer } from '../../testing/wire/index.js';
import { createAnthropicLLM } from './anthropic-llm.js';

/** How a reply the Anthropic SDK received (from the local server) becomes the response and its Message. */

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = (value: string): Message => ({
  role: 'user',
  content: [{ cache_prompt: false, type: 'text', text: value }],
  thinking_blocks: [],
});

async function llmAnswering(script: WireReply[], options: { thinking?: boolean } = {}) {
  server = await startAnthropicServer(script);
  return createAnthropicLLM({
    model: 'anthropic/claude-sonnet-4-6',
    baseURL: server.baseURL,
    apiKey: 'sk-ant-test',
    maxRetries: 0,
    ...(options.thinking && { thinking: { budgetTokens: 2048 } }),
  });
}

describe.each([false, true])('an Anthropic reply (streaming: %s)', (stream) => {
  const complete = (llm: Awaited<ReturnType<typeof llmAnswering>>, messages: Message[]) =>
    llm.complete({ messages, ...(stream && { onDelta: () => undefined }) });

  it('reads a text-only answer as exactly one text part, with no tool calls and no reasoning', async () => {
    const llm = await llmAnswering([{ text: 'Plain answer.' }]);
    const response = await complete(llm, [user('hi')]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: [{ cache_prompt: false, type: 'text', text: 'Plain answer.' }],
      thinking_blocks: [],
    });
    expect(response).toMatchObject({ id: 'msg_1', finishReason: 'stop', providerFinishReason: 'end_turn' });
  });

  it('drops an empty text block', async () => {
    const llm = await llmAnswering([{ text: '' }]);
    expect((await complete(llm, [user('hi')])).message.content).toEqual([]);
  });

  it('reports a reply cut at max_tokens as length', async () => {
    const llm = await llmAnswering([{ text: 'cut he', truncated: true }]);
    const response = await complete(llm, [user('hi')]);
    expect(response).toMatchObject({ finishReason: 'length', providerFinishReason: 'max_tokens' });
  });

  it('reads a lone tool call with its id and its input as JSON text', async () => {
    const llm = await llmAnswering([
      { toolCalls: [{ id: 'toolu_only', name: 'finish', arguments: { message: 'x' } }] },
    ]);
    const response = await complete(llm, [user('finish')]);
    expect(response.message.tool_calls).toEqual([
      { id: 'toolu_only', name: 'finish', arguments: '{"message":"x"}', origin: 'completion' },
    ]);
    expect(response).toMatchObject({ finishReason: 'tool_calls', providerFinishReason: 'tool_use' });
  });

  it('keeps thinking and redacted thinking byte for byte, and the follow-up carries them back', async () => {
    const llm = await llmAnswering(
      [
        {
          thinking: 'Let me look.',
          redactedThinking: 'EnCrYpTeD==',
          toolCalls: [
            { id: 'toolu_one', name: 'read', arguments: { path: 'a' } },
            { id: 'toolu_two', name: 'read', arguments: {} },
          ],
        },
        { text: 'Both read.' },
      ],
      { thinking: true },
    );
    const first = await complete(llm, [user('read both')]);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.thinking_blocks).toEqual([
      { type: 'thinking', thinking: 'Let me look.', signature: expect.stringMatching(/^sig_/) },
      { type: 'redacted_thinking', data: 'EnCrYpTeD==' },
    ]);
    // Only readable thinking becomes reasoning text; the redacted block has none.
    expect(first.message.reasoning_content).toBe('Let me look.');
    expect(first.message.tool_calls).toEqual([
      { id: 'toolu_one', name: 'read', arguments: '{"path":"a"}', origin: 'completion' },
      { id: 'toolu_two', name: 'read', arguments: '{}', origin: 'completion' },
    ]);
    const results: Message[] = ['toolu_one', 'toolu_two'].map((id) => ({
      role: 'tool',
      tool_call_id: id,
      name: 'read',
      content: [{ cache_prompt: false, type: 'text', text: `result ${id}` }],
      thinking_blocks: [],
    }));
    const second = await complete(llm, [user('read both'), first.message, ...results]);
    expect(server?.requests.flatMap((request) => request.violations)).toEqual([]);
    expect(second.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Both read.' }]);
  });

  it('counts the cached part in the prompt and reports cache reads and writes', async () => {
    // The server reports input_tokens as the 5000-token prompt minus what it read from or wrote to its cache.
    const llm = await llmAnswering([
      { text: 'one', usage: { input: 5000, output: 7 } },
      { text: 'two', usage: { input: 5000, output: 9 } },
    ]);
    const system: Message = {
      role: 'system',
      content: [{ cache_prompt: false, type: 'text', text: 'You are terse. '.repeat(200) }],
      thinking_blocks: [],
    };
    const first = await complete(llm, [system, user('q1')]);
    const second = await complete(llm, [system, user('q1'), first.message, user('q2')]);
    expect(first.usage).toMatchObject({ prompt_tokens: 5000, completion_tokens: 7, cache_read_tokens: 0 });
    expect(first.usage?.cache_write_tokens).toBeGreaterThan(0);
    expect(second.usage).toMatchObject({ prompt_tokens: 5000, completion_tokens: 9, response_id: 'msg_2' });
    expect(second.usage?.cache_read_tokens).toBeGreaterThanOrEqual(first.usage?.cache_write_tokens ?? 0);
  });
});
