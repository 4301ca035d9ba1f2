import type { ConversationStatsSnapshot, MetricsSnapshot } from '../llm/metrics.js';
import { OFFLINE_MODEL_NAME } from '../llm/offline-llm.js';

/** What a conversation spent, as its stats (folded out of the log) tell. */
export interface Spend {
  /** Dollars of every usage id (agent, condenser, title, `delegate:<id>` sub-agents…). */
  spentUsd: number;
  /**
   * Usage ids that used tokens at no recorded cost: a model without a price, whose spend is unknown (the offline
   * model's tokens are free, not unknown).
   */
  unknownCostUsageIds: string[];
}

/** The spend in a stats snapshot. */
export function spendOf(stats: ConversationStatsSnapshot): Spend {
  let spentUsd = 0;
  const unknownCostUsageIds: string[] = [];
  for (const [usageId, metrics] of Object.entries(stats.usage_to_metrics)) {
    spentUsd += metrics.accumulated_cost;
    const usage = metrics.accumulated_token_usage;
    if (metrics.accumulated_cost === 0 && usage.prompt_tokens + usage.completion_tokens > 0 && !isOffline(metrics)) {
      unknownCostUsageIds.push(usageId);
    }
  }
  return { spentUsd, unknownCostUsageIds };
}

/**
 * The offline model (`createOfflineLLM`, always named `offline`) costs $0 by definition: its tokens at no cost are a
 * known price, not an unknown one. Stats record only the model's name, so the name is what tells it.
 */
function isOffline(metrics: MetricsSnapshot): boolean {
  return metrics.model_name === OFFLINE_MODEL_NAME;
}
