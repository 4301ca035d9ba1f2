import { describe, expect, it } from 'vitest';
import { costOf, tokenUsage } from './internal/usage.js';
import { pricingFor, registerPricing } from './pricing.js';

describe('price table', () => {
  it('matches by longest name prefix, with or without a provider prefix', () => {
    expect(pricingFor('anthropic/claude-sonnet-4-5-20250929')?.inputPerMillion).toBe(3);
    expect(pricingFor('gpt-4o-mini-2024-07-18')?.inputPerMillion).toBe(0.15);
    expect(pricingFor('gpt-4o')?.inputPerMillion).toBe(2.5);
    expect(pricingFor('gemini/gemini-2.5-flash-lite')?.outputPerMillion).toBe(0.4);
    expect(pricingFor('unknown-model')).toBeUndefined();
  });

  it('is extended and overridden by registerPricing', () => {
    registerPricing({ 'my-local-model': { inputPerMillion: 1, outputPerMillion: 2 } });
    expect(pricingFor('openai/my-local-model')).toEqual({ inputPerMillion: 1, outputPerMillion: 2 });
  });

  it('prices cache reads and writes apart from the rest of the prompt', () => {
    const usage = tokenUsage({
      model: 'm',
      responseId: 'r',
      contextWindow: 0,
      prompt: 1_000_000,
      completion: 1_000_000,
      cacheRead: 500_000,
      cacheWrite: 250_000,
    });
    const cost = costOf(usage, {
      inputPerMillion: 4,
      outputPerMillion: 10,
      cachedInputPerMillion: 0.5,
      cacheWritePerMillion: 5,
    });
    expect(cost).toBeCloseTo(0.25 * 4 + 0.5 * 0.5 + 0.25 * 5 + 10);
  });
});
