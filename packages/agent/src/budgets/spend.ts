import type { LLM } from '../llm/llm.js';
import type { ConversationStatsSnapshot, MetricsSnapshot } from '../llm/metrics.js';
import { OFFLINE_MODEL_NAME } from '../llm/offline-llm.js';
import { pricingFor } from '../llm/pricing.js';

/** What a conversation spent, as its stats (folded out of the log) tell. */
export interface Spend {
  /** Dollars of every usage id (agent, condenser, title, `delegate:<id>` sub-agents…). */
  spentUsd: number;
  /**
   * Usage ids that used tokens at no recorded cost: a model without a price, whose spend is unknown (the tokens of
   * a model priced at $0, the offline model's included, are free, not unknown).
   */
  unknownCostUsageIds: string[];
}

/**
 * The spend in a stats snapshot. `llm` (the conversation's model) tells its own `pricing`, which the stats do not
 * record: a model given a price of $0 there spends $0, not an unknown amount.
 */
export function spendOf(stats: ConversationStatsSnapshot, llm?: Pick<LLM, 'usageId' | 'model' | 'pricing'>): Spend {
  let spentUsd = 0;
  const unknownCostUsageIds: string[] = [];
  for (const [usageId, metrics] of Object.entries(stats.usage_to_metrics)) {
    spentUsd += metrics.accumulated_cost;
    const usage = metrics.accumulated_token_usage;
    if (
      metrics.accumulated_cost === 0 &&
      usage.prompt_tokens + usage.completion_tokens > 0 &&
      !hasKnownPrice(usageId, metrics, llm)
    ) {
      unknownCostUsageIds.push(usageId);
    }
  }
  return { spentUsd, unknownCostUsageIds };
}

/**
 * Whether the model a usage id recorded has a price, so its $0 is a real $0: the offline model (`createOfflineLLM`,
 * always named `offline`, free by definition), a model of the price table (a local model registered at $0), or the
 * conversation's LLM with a `pricing` of its own when it is the model the usage id recorded. Stats record only the
 * model's name, so the name is what tells it.
 */
function hasKnownPrice(
  usageId: string,
  metrics: MetricsSnapshot,
  llm: Pick<LLM, 'usageId' | 'model' | 'pricing'> | undefined,
): boolean {
  if (metrics.model_name === OFFLINE_MODEL_NAME || pricingFor(metrics.model_name) !== undefined) return true;
  return llm?.pricing !== undefined && llm.usageId === usageId && llm.model === metrics.model_name;
}
