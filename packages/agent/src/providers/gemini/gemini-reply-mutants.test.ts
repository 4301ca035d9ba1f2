import type { Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { startGeminiServer, type WireReply, type WireServer } from '../../testing/wire/index.js';
import { createGeminiLLM } from './gemini-llm.js';

/** How a reply `@google/genai` received (from the local server) becomes the response and its Message. */

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
  server = await startGeminiServer(script);
  return createGeminiLLM({
    model: 'gemini/gemini-2.5-flash',
    baseURL: server.baseURL,
    apiKey: 'gm-test',
    maxRetries: 0,
    ...(options.thinking && { thinking: { includeThoughts: true } }),
  });
}

describe.each([false, true])('a Gemini reply (streaming: %s)', (stream) => {
  const complete = (llm: Awaited<ReturnType<typeof llmAnswering>>, messages: Message[]) =>
    llm.complete({ messages, ...(stream && { onDelta: () => undefined }) });

  it("reads a text-only answer as one text part, with no tool calls and no reasoning, under Gemini's response id", async () => {
    const llm = await llmAnswering([{ text: 'Plain answer in several pieces.' }]);
    const response = await complete(llm, [user('hi')]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: [{ cache_prompt: false, type: 'text', text: 'Plain answer in several pieces.' }],
      thinking_blocks: [],
    });
    expect(response).toMatchObject({ id: 'gemini-resp-1', finishReason: 'stop', providerFinishReason: 'STOP' });
    expect(response.usage?.response_id).toBe('gemini-resp-1');
  });

  it('reports an answer cut at the output limit as length', async () => {
    const llm = await llmAnswering([{ text: 'cut he', truncated: true }]);
    const response = await complete(llm, [user('hi')]);
    expect(response).toMatchObject({ finishReason: 'length', providerFinishReason: 'MAX_TOKENS' });
  });

  it('gives id-less parallel calls distinct ids, keeps the signature on the first, and accepts the follow-up', async () => {
    const llm = await llmAnswering(
      [
        {
          thinking: 'Two reads.',
          toolCalls: [
            { name: 'read', arguments: { path: 'a' } },
            { name: 'read', arguments: { path: 'b' } },
          ],
        },
        { text: 'Both read.' },
      ],
      { thinking: true },
    );
    const first = await complete(llm, [user('read both')]);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.message.reasoning_content).toBe('Two reads.');
    const calls = first.message.tool_calls ?? [];
    expect(calls.map((call) => call.arguments)).toEqual(['{"path":"a"}', '{"path":"b"}']);
    expect(calls[0]?.id).toMatch(/^gcall_gemini-resp-1_0__thought__.+/);
    expect(calls[1]?.id).toBe('gcall_gemini-resp-1_1');
    const results: Message[] = calls.map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      name: call.name,
      content: [{ cache_prompt: false, type: 'text', text: `result of ${call.arguments}` }],
      thinking_blocks: [],
    }));
    const second = await complete(llm, [user('read both'), first.message, ...results]);
    expect(server?.requests.flatMap((request) => request.violations)).toEqual([]);
    expect(second.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Both read.' }]);
  });

  it('counts thought tokens in the completion and a cached prefix in the prompt', async () => {
    const llm = await llmAnswering(
      [
        { thinking: 'Hmm.', text: 'one', usage: { input: 4000, output: 10, reasoning: 30 } },
        { text: 'two', usage: { input: 4000, output: 12 } },
      ],
      { thinking: true },
    );
    const first = await complete(llm, [user('q1 '.repeat(100))]);
    expect(first.usage).toMatchObject({
      prompt_tokens: 4000,
      completion_tokens: 40,
      reasoning_tokens: 30,
      cache_read_tokens: 0,
    });
    const second = await complete(llm, [user('q1 '.repeat(100)), first.message, user('q2')]);
    expect(second.usage).toMatchObject({ prompt_tokens: 4000, completion_tokens: 12, reasoning_tokens: 0 });
    expect(second.usage?.cache_read_tokens).toBeGreaterThan(0);
  });
});

describe('a streamed Gemini reply', () => {
  it('hands every piece of text and of thought to onDelta, in order, and they add up to the message', async () => {
    const llm = await llmAnswering([{ thinking: 'Weigh both options.', text: 'Take the second one, it is shorter.' }], {
      thinking: true,
    });
    const deltas: { content?: string; reasoning_content?: string }[] = [];
    const response = await llm.complete({ messages: [user('which?')], onDelta: (delta) => deltas.push(delta) });
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe('Weigh both options.');
    expect(deltas.map((delta) => delta.content ?? '').join('')).toBe('Take the second one, it is shorter.');
    expect(response.message.reasoning_content).toBe('Weigh both options.');
    expect(response.message.content).toEqual([
      { cache_prompt: false, type: 'text', text: 'Take the second one, it is shorter.' },
    ]);
  });
});
