// What the budget guard takes the next model call to cost: the last turn's tokens (prompt and reply) as uncached
// input at the LLM's price; nothing before the first call, nothing for a model whose price is unknown (that is
// an unknown cost, which the guard handles on its own) and nothing for the offline model.
import { describe, expect, it } from 'vitest';
import type { LLM } from '../llm/llm.js';
import type { ConversationStatsSnapshot } from '../llm/metrics.js';
import { createOfflineLLM } from '../llm/offline-llm.js';
import { estimateNextCallUsd, pricingOf } from './estimate-next-call.js';

function llmOf(overrides: Partial<LLM>): LLM {
  return {
    model: 'house-model-without-a-list-price',
    usageId: 'agent',
    offline: false,
    complete: () => Promise.reject(new Error('never called')),
    ...overrides,
  };
}

/** Stats whose usage ids each had a last turn of `tokens` tokens. */
function statsOf(lastTurns: Record<string, number>): ConversationStatsSnapshot {
  const entries = Object.entries(lastTurns).map(([usageId, tokens]) => [
    usageId,
    {
      model_name: 'any',
      accumulated_cost: 0,
      accumulated_token_usage: {
        model: 'any',
        prompt_tokens: tokens,
        completion_tokens: 0,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        context_window: 0,
        per_turn_token: tokens,
        response_id: '',
      },
    },
  ]);
  return { usage_to_metrics: Object.fromEntries(entries) } as ConversationStatsSnapshot;
}

describe('pricingOf', () => {
  it('is $0 in and out for the offline model, whatever its name', () => {
    const offline = createOfflineLLM({ script: [] });
    expect(pricingOf(offline)).toEqual({ inputPerMillion: 0, outputPerMillion: 0 });
  });

  it("prefers the LLM's own price to the table's, and is undefined for a model of neither", () => {
    const own = { inputPerMillion: 7, outputPerMillion: 9 };
    expect(pricingOf(llmOf({ model: 'gpt-4o', pricing: own }))).toBe(own);
    expect(pricingOf(llmOf({ model: 'gpt-4o' }))?.inputPerMillion).toBe(2.5);
    expect(pricingOf(llmOf({}))).toBe(undefined);
  });
});

describe('estimateNextCallUsd', () => {
  const priced = llmOf({ pricing: { inputPerMillion: 1000, outputPerMillion: 4000 } });

  it("prices the LLM's own last turn as input, not another usage id's", () => {
    expect(estimateNextCallUsd(priced, statsOf({ agent: 15, condenser: 5000 }))).toBeCloseTo(0.015, 10);
  });

  it('is 0 before the first call: nothing is known of the prompt yet', () => {
    expect(estimateNextCallUsd(priced, statsOf({}))).toBe(0);
    expect(estimateNextCallUsd(priced, statsOf({ condenser: 5000 }))).toBe(0);
  });

  it("is 0 before the first call of a usage id named like Object's members, and prices its own entry after", () => {
    for (const usageId of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const named = llmOf({ usageId, pricing: { inputPerMillion: 1000, outputPerMillion: 4000 } });
      expect(estimateNextCallUsd(named, statsOf({ agent: 5000 }))).toBe(0);
      expect(estimateNextCallUsd(named, statsOf({ [usageId]: 15 }))).toBeCloseTo(0.015, 10);
    }
  });

  it('is 0 for a model of unknown price and for the offline model, however long the last turn', () => {
    expect(estimateNextCallUsd(llmOf({}), statsOf({ agent: 1_000_000 }))).toBe(0);
    const offline = createOfflineLLM({ script: [] });
    expect(estimateNextCallUsd(offline, statsOf({ [offline.usageId]: 1_000_000 }))).toBe(0);
  });
});
