// The figures a budget is checked against: what the stats say was spent (and at an unknown cost), and what the
// next call is estimated to cost.
import { describe, expect, it } from 'vitest';
import type { LLM } from '../llm/llm.js';
import type { ConversationStatsSnapshot, MetricsSnapshot } from '../llm/metrics.js';
import { registerPricing } from '../llm/pricing.js';
import { estimateNextCallUsd, pricingOf } from './estimate-next-call.js';
import { spendOf } from './spend.js';

function entry(model: string, cost: number, prompt: number, completion: number): MetricsSnapshot {
  return {
    model_name: model,
    accumulated_cost: cost,
    accumulated_token_usage: {
      model,
      prompt_tokens: prompt,
      completion_tokens: completion,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      context_window: 0,
      per_turn_token: prompt + completion,
      response_id: '',
    },
  };
}

const statsOf = (usage: Record<string, MetricsSnapshot>): ConversationStatsSnapshot => ({ usage_to_metrics: usage });

function llmOf(overrides: Partial<LLM>): LLM {
  return {
    model: 'm',
    usageId: 'agent',
    offline: false,
    complete: () => Promise.reject(new Error('not called')),
    ...overrides,
  };
}

describe('spendOf', () => {
  it('adds up every usage id, and is $0 with none', () => {
    expect(spendOf(statsOf({}))).toEqual({ spentUsd: 0, unknownCostUsageIds: [] });
    const spend = spendOf(statsOf({ agent: entry('m', 0.25, 10, 5), 'delegate:w': entry('m', 0.5, 10, 5) }));
    expect(spend.spentUsd).toBeCloseTo(0.75);
    expect(spend.unknownCostUsageIds).toEqual([]);
  });

  it('names each usage id that spent tokens at no cost, even a single token, but not one that spent none', () => {
    const spend = spendOf(
      statsOf({
        agent: entry('m', 0.1, 10, 5),
        condenser: entry('unpriced', 0, 1, 0),
        title: entry('unpriced', 0, 0, 0),
        side: entry('unpriced', 0, 0, 3),
      }),
    );
    expect(spend.unknownCostUsageIds).toEqual(['condenser', 'side']);
    expect(spend.spentUsd).toBeCloseTo(0.1);
  });

  it('counts the tokens of a model the price table lists at $0 as free, not unknown', () => {
    registerPricing({ 'spend-test-free-local': { inputPerMillion: 0, outputPerMillion: 0 } });
    const spend = spendOf(
      statsOf({ agent: entry('spend-test-free-local', 0, 400, 20), side: entry('spend-test-unpriced', 0, 5, 0) }),
    );
    expect(spend.unknownCostUsageIds).toEqual(['side']);
  });

  it("counts the offline model's tokens as free, not unknown", () => {
    expect(spendOf(statsOf({ agent: entry('offline', 0, 400, 20) })).unknownCostUsageIds).toEqual([]);
  });
});

describe('pricingOf and estimateNextCallUsd', () => {
  const pricing = { inputPerMillion: 1000, outputPerMillion: 4000 };

  it('prices the offline model at $0 and a model of no known price as unknown', () => {
    expect(pricingOf(llmOf({ model: 'offline', offline: true }))).toEqual({ inputPerMillion: 0, outputPerMillion: 0 });
    expect(pricingOf(llmOf({ model: 'no-such-model-anywhere' }))).toBe(undefined);
    expect(pricingOf(llmOf({ pricing }))).toEqual(pricing);
  });

  it("is 0 before the first call, then the last turn's tokens at the input price", () => {
    const llm = llmOf({ pricing });
    expect(estimateNextCallUsd(llm, statsOf({}))).toBe(0);
    // Another usage id's turn is not this model's prompt.
    expect(estimateNextCallUsd(llm, statsOf({ condenser: entry('m', 1, 500, 500) }))).toBe(0);
    expect(estimateNextCallUsd(llm, statsOf({ agent: entry('m', 1, 1000, 500) }))).toBeCloseTo(1.5);
  });

  it('is 0 for a model of unknown price or the offline model, whatever it used', () => {
    const stats = statsOf({ agent: entry('m', 0, 1000, 500) });
    expect(estimateNextCallUsd(llmOf({ model: 'no-such-model-anywhere' }), stats)).toBe(0);
    expect(estimateNextCallUsd(llmOf({ model: 'offline', offline: true }), stats)).toBe(0);
  });
});
