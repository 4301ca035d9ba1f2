import { ownEntry } from '../internal/own-entries.js';
import type { LLM } from '../llm/llm.js';
import type { ConversationStatsSnapshot } from '../llm/metrics.js';
import { type Pricing, pricingFor } from '../llm/pricing.js';

/** The prices an LLM's calls cost: its own, else the price table's; undefined when unknown. */
export function pricingOf(llm: LLM): Pricing | undefined {
  if (llm.offline) return { inputPerMillion: 0, outputPerMillion: 0 };
  return llm.pricing ?? pricingFor(llm.model);
}

/**
 * Whether every call of `llm` is known to cost nothing: it has a price, and each of its rates (input, output, cache
 * reads and writes) is $0. A model of no known price is not free, its cost is unknown.
 */
export function isFreeModel(llm: LLM): boolean {
  const pricing = pricingOf(llm);
  if (pricing === undefined) return false;
  const { inputPerMillion, outputPerMillion, cachedInputPerMillion = 0, cacheWritePerMillion = 0 } = pricing;
  return inputPerMillion === 0 && outputPerMillion === 0 && cachedInputPerMillion === 0 && cacheWritePerMillion === 0;
}

/**
 * What the next model call will cost at least: its prompt holds the last call's whole prompt and reply
 * (`per_turn_token` of the LLM's usage id), all priced here as uncached input. Cache reads make the real call
 * cheaper, the new reply dearer; it is an estimate, and 0 before the first call (nothing is known of the prompt
 * yet, so only what was spent stops the first call).
 */
export function estimateNextCallUsd(llm: LLM, stats: ConversationStatsSnapshot): number {
  const pricing = pricingOf(llm);
  // Own entries only: a usage id such as `constructor` must not find Object.prototype's member.
  const lastTurnTokens = ownEntry(stats.usage_to_metrics, llm.usageId)?.accumulated_token_usage.per_turn_token ?? 0;
  if (pricing === undefined) return 0;
  return (lastTurnTokens * pricing.inputPerMillion) / 1_000_000;
}
