import { describe, expect, it } from 'vitest';
import type { LLMDelta } from './llm.js';
import { createOfflineLLM } from './offline-llm.js';

describe('the offline model', () => {
  it('reports a synthetic usage with no cache or reasoning tokens and no context window', async () => {
    const llm = createOfflineLLM({ script: [{ content: 'abcdefgh' }] });
    const response = await llm.complete({ messages: [{ role: 'user', content: 'hi' }] });
    const prompt = Math.ceil(JSON.stringify([{ role: 'user', content: 'hi' }]).length / 4);
    expect(response.usage).toEqual({
      model: 'offline',
      prompt_tokens: prompt,
      completion_tokens: 2,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: prompt + 2,
      response_id: response.id,
    });
  });

  it('streams every character of short texts', async () => {
    for (let length = 1; length <= 7; length++) {
      const text = `${'x'.repeat(length - 1)}y`;
      const llm = createOfflineLLM({ script: [{ content: text, reasoning: text }] });
      const deltas: LLMDelta[] = [];
      await llm.complete({ messages: [{ role: 'user', content: 'go' }], onDelta: (delta) => deltas.push(delta) });
      expect(deltas.map((delta) => delta.content ?? '').join('')).toBe(text);
      expect(deltas.map((delta) => delta.reasoning_content ?? '').join('')).toBe(text);
    }
  });
});
