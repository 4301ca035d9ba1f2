import { afterEach, describe, expect, it } from 'vitest';
import type { LLMDelta } from '../src/llm/llm.js';
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

describe('createOpenAILLM streaming', () => {
  it('streams when onDelta is given, delivering every content and reasoning delta in order', async () => {
    const { baseURL, requests } = await serve([
      {
        content: 'The answer is forty-two.',
        reasoning: 'Recall the book.',
        usage: { prompt_tokens: 7, completion_tokens: 9 },
      },
    ]);
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'k' });
    const deltas: LLMDelta[] = [];
    const response = await llm.complete({ messages: userTurn, onDelta: (delta) => deltas.push(delta) });

    expect(requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const contentDeltas = deltas.flatMap((delta) => (delta.content === undefined ? [] : [delta.content]));
    const reasoningDeltas = deltas.flatMap((delta) => (delta.reasoning_content ? [delta.reasoning_content] : []));
    expect(contentDeltas.length).toBeGreaterThan(1);
    expect(contentDeltas.join('')).toBe('The answer is forty-two.');
    expect(reasoningDeltas.join('')).toBe('Recall the book.');
    expect(response.id).toBe('chatcmpl-1');
    expect(response.finishReason).toBe('stop');
    expect(response.message).toEqual({
      role: 'assistant',
      content: [{ cache_prompt: false, type: 'text', text: 'The answer is forty-two.' }],
      reasoning_content: 'Recall the book.',
      thinking_blocks: [],
    });
    expect(response.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 9, per_turn_token: 16 });
  });

  it('assembles parallel tool calls from fragments split across chunks', async () => {
    const { baseURL } = await serve([
      {
        content: 'Checking.',
        toolCalls: [
          { name: 'terminal', arguments: { command: 'ls -la /tmp', summary: 'list files' } },
          { name: 'file_editor', arguments: { command: 'view', path: '/etc/hosts' } },
        ],
      },
    ]);
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'k', stream: true });
    const response = await llm.complete({ messages: userTurn });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'Checking.' }]);
    expect(response.message.tool_calls).toEqual([
      {
        id: 'call_1_0',
        name: 'terminal',
        arguments: JSON.stringify({ command: 'ls -la /tmp', summary: 'list files' }),
        origin: 'completion',
      },
      {
        id: 'call_1_1',
        name: 'file_editor',
        arguments: JSON.stringify({ command: 'view', path: '/etc/hosts' }),
        origin: 'completion',
      },
    ]);
  });

  it('streams a tool-call-only reply with empty content and no content deltas', async () => {
    const { baseURL } = await serve([{ toolCalls: [{ name: 'finish', arguments: { message: 'bye' } }] }]);
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'k' });
    const deltas: LLMDelta[] = [];
    const response = await llm.complete({ messages: userTurn, onDelta: (delta) => deltas.push(delta) });
    expect(deltas).toEqual([]);
    expect(response.message.content).toEqual([]);
    expect(response.message.tool_calls?.[0]).toMatchObject({ name: 'finish', arguments: '{"message":"bye"}' });
  });
});
