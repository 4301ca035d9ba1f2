import { describe, expect, it } from 'vitest';
import { LLMAbortedError } from './errors/llm-aborted-error.js';
import { LLMScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
import type { LLMDelta, LLMRequest } from './llm.js';
import { builtInDemoScript, createOfflineLLM } from './offline-llm.js';

const request: LLMRequest = { messages: [{ role: 'user', content: 'Create hello.txt' }] };

describe('createOfflineLLM', () => {
  it('answers from a list of turns with offline ids, zero cost and a synthetic usage', async () => {
    const llm = createOfflineLLM({
      script: [
        { content: 'Thinking aloud.', reasoning: 'hmm', toolCalls: [{ name: 'think', arguments: { thought: 'x' } }] },
        { content: 'Done.' },
      ],
    });
    expect(llm).toMatchObject({ model: 'offline', offline: true, usageId: 'default' });

    const first = await llm.complete(request);
    expect(first.id).toBe('offline-1_1');
    expect(first.finishReason).toBe('tool_calls');
    expect(first.cost).toBe(0);
    expect(first.message).toEqual({
      role: 'assistant',
      content: [{ cache_prompt: false, type: 'text', text: 'Thinking aloud.' }],
      tool_calls: [{ id: 'call_offline_1_1_0', name: 'think', arguments: '{"thought":"x"}', origin: 'completion' }],
      reasoning_content: 'hmm',
      thinking_blocks: [],
    });
    expect(first.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(first.usage?.per_turn_token).toBe((first.usage?.prompt_tokens ?? 0) + (first.usage?.completion_tokens ?? 0));
    expect(first.usage?.response_id).toBe('offline-1_1');

    const second = await llm.complete(request);
    expect(second).toMatchObject({ id: 'offline-2_1', finishReason: 'stop' });
    expect(second.message.tool_calls).toBeUndefined();
  });

  it('counts prompt tokens as JSON length / 4 of each request, reusing what consecutive requests share', async () => {
    const llm = createOfflineLLM({ script: () => ({ content: 'ok' }) });
    const message = (text: string) => Object.freeze({ role: 'user' as const, content: text });
    const history = [message('a'.repeat(40)), message('b'.repeat(80))];
    const requests: LLMRequest['messages'][] = [
      history,
      [...history, message('c'.repeat(120))],
      [...history, message('c'.repeat(120)), message('d'.repeat(8))],
      // A changed middle message and a mutable one: both measured again.
      [history[0]!, message('e'.repeat(400)), { role: 'user', content: 'f'.repeat(4) }],
      [history[0]!],
    ];
    for (const messages of requests) {
      const response = await llm.complete({ messages });
      expect(response.usage?.prompt_tokens).toBe(Math.ceil(JSON.stringify(messages).length / 4));
    }
    // The same mutable message, changed between two calls: measured again, not taken from the previous call.
    const mutable = { role: 'user' as const, content: 'g' };
    await llm.complete({ messages: [history[0]!, mutable] });
    mutable.content = 'g'.repeat(100);
    const changed = await llm.complete({ messages: [history[0]!, mutable] });
    expect(changed.usage?.prompt_tokens).toBe(Math.ceil(JSON.stringify([history[0], mutable]).length / 4));
  });

  it('raises LLMScriptExhaustedError naming the call once the script runs out', async () => {
    const llm = createOfflineLLM({ script: [{ content: 'only' }] });
    await llm.complete(request);
    const error = await llm.complete(request).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(LLMScriptExhaustedError);
    expect((error as Error).message).toContain('has 1 turns; call 2 has none');
  });

  it('asks a function script for each turn with the request and turn index', async () => {
    const seen: number[] = [];
    const llm = createOfflineLLM({
      usageId: 'title',
      script: (req, turnIndex) => {
        seen.push(turnIndex);
        return { content: `turn ${turnIndex} saw ${req.messages.length} messages` };
      },
    });
    expect(llm.usageId).toBe('title');
    await llm.complete(request);
    const second = await llm.complete({ messages: [...request.messages, { role: 'assistant', content: 'x' }] });
    expect(seen).toEqual([0, 1]);
    expect(second.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'turn 1 saw 2 messages' }]);
  });

  it('emits content and reasoning to onDelta in several chunks', async () => {
    const llm = createOfflineLLM({ script: [{ content: 'Hello from the offline model!', reasoning: 'plan first' }] });
    const deltas: LLMDelta[] = [];
    await llm.complete({ ...request, onDelta: (delta) => deltas.push(delta) });
    const content = deltas.flatMap((delta) => (delta.content ? [delta.content] : []));
    expect(content.length).toBeGreaterThan(1);
    expect(content.join('')).toBe('Hello from the offline model!');
    expect(deltas.flatMap((delta) => (delta.reasoning_content ? [delta.reasoning_content] : [])).join('')).toBe(
      'plan first',
    );
  });

  it('gives a second instance shown a longer history (a resumed conversation) ids of its own', async () => {
    const script = [{ content: 'a', toolCalls: [{ name: 'think', arguments: { thought: 'x' } }] }];
    const first = await createOfflineLLM({ script }).complete(request);
    const resumed = await createOfflineLLM({ script }).complete({
      messages: [...request.messages, first.message, { role: 'user', content: 'again' }],
    });
    expect(resumed.id).not.toBe(first.id);
    expect(resumed.message.tool_calls?.[0]?.id).not.toBe(first.message.tool_calls?.[0]?.id);
  });

  it('refuses an already aborted request without using up a turn', async () => {
    const llm = createOfflineLLM({ script: [{ content: 'kept' }] });
    const controller = new AbortController();
    controller.abort();
    await expect(llm.complete({ ...request, signal: controller.signal })).rejects.toBeInstanceOf(LLMAbortedError);
    expect((await llm.complete(request)).id).toBe('offline-1_1');
  });

  it('plays the quickstart demo: create hello.txt, cat it, finish', async () => {
    const llm = createOfflineLLM({ script: builtInDemoScript() });
    const calls = [];
    for (let turn = 0; turn < 3; turn += 1) {
      const { message } = await llm.complete(request);
      const call = message.tool_calls?.[0];
      calls.push(call && { name: call.name, arguments: JSON.parse(call.arguments) as unknown });
    }
    expect(calls).toEqual([
      {
        name: 'file_editor',
        arguments: {
          command: 'create',
          path: 'hello.txt',
          file_text: 'Hello from the offline model!\n',
          security_risk: 'LOW',
          summary: 'create hello.txt',
        },
      },
      { name: 'terminal', arguments: { command: 'cat hello.txt', security_risk: 'LOW', summary: 'show hello.txt' } },
      {
        name: 'finish',
        arguments: {
          message:
            'Created hello.txt and showed its contents. (This run used the built-in offline model: no network, no API key.)',
        },
      },
    ]);
    await expect(llm.complete(request)).rejects.toBeInstanceOf(LLMScriptExhaustedError);
  });
});
