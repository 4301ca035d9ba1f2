import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { recordResponse } from '../conversation/record-response.js';
import { AgentError } from '../errors.js';
import { createAnthropicLLM } from '../providers/anthropic/anthropic-llm.js';
import { createLLM } from '../providers/create-llm.js';
import { InvalidUsageIdError } from './errors/invalid-usage-id-error.js';
import type { LLM, LLMResponse } from './llm.js';
import { emptyStats, emptyTokenUsage } from './metrics.js';
import { createOfflineLLM } from './offline-llm.js';
import { createOpenAILLM } from './openai-llm.js';
import { withUsageId } from './with-usage-id.js';

function refusal(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectRefused(make: () => unknown): void {
  const error = refusal(make);
  expect(error).toBeInstanceOf(InvalidUsageIdError);
  expect(AgentError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ code: 'invalid_usage_id', usageId: '__proto__' });
  expect((error as Error).message).toBe('The usage id "__proto__" cannot be used: choose another name');
}

describe('the usage id __proto__ (usage_to_metrics cannot key it)', () => {
  it('is refused where an LLM is made', () => {
    expectRefused(() => createOfflineLLM({ script: [], usageId: '__proto__' }));
    expectRefused(() => createLLM({ model: 'gpt-4o', apiKey: 'k', usageId: '__proto__' }));
    expectRefused(() => createOpenAILLM({ model: 'gpt-4o', apiKey: 'k', usageId: '__proto__' }));
    expectRefused(() => createAnthropicLLM({ model: 'claude-sonnet-4-5', apiKey: 'k', usageId: '__proto__' }));
    expectRefused(() => withUsageId(createOfflineLLM({ script: [] }), '__proto__'));
  });

  it('is refused where a response of a hand-written LLM is recorded, before any stats event', async () => {
    const emitted: unknown[] = [];
    const sink = {
      latestStats: () => emptyStats(),
      hold: (event: unknown) => emitted.push(event),
      emit: async (event: unknown) => {
        emitted.push(event);
      },
    };
    const llm = { ...createOfflineLLM({ script: [] }), usageId: '__proto__' } as LLM;
    const response: LLMResponse = {
      id: 'r',
      finishReason: 'stop',
      latencySeconds: 0,
      message: { role: 'assistant', content: [], thinking_blocks: [] },
      cost: 1,
      usage: { ...emptyTokenUsage('m'), prompt_tokens: 10 },
    };
    await expect(recordResponse(sink, { llm, response, hold: false })).rejects.toBeInstanceOf(InvalidUsageIdError);
    expect(emitted).toEqual([]);
    // Another name is recorded as usual.
    await recordResponse(sink, { llm: { ...llm, usageId: 'constructor' }, response, hold: false });
    expect(emitted).toHaveLength(1);
    expect(Object.keys((emitted[0] as ReturnType<typeof stats>).value.usage_to_metrics)).toEqual(['constructor']);
  });

  it('leaves the other names that Object.prototype has usable', () => {
    for (const usageId of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(createOfflineLLM({ script: [], usageId }).usageId).toBe(usageId);
      expect(withUsageId(createOfflineLLM({ script: [] }), usageId).usageId).toBe(usageId);
    }
  });
});

function stats() {
  return createEvent('ConversationStateUpdateEvent', { key: 'stats', value: emptyStats() }) as unknown as {
    value: { usage_to_metrics: Record<string, unknown> };
  };
}
