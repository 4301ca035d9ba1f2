import {
  addTokenUsage,
  type ConversationStatsSnapshot,
  emptyTokenUsage,
  type MetricsSnapshot,
} from '../../llm/metrics.js';

/** All usage ids of a conversation's stats in one snapshot (the reference's `get_combined_metrics`, without lists). */
export function combinedSnapshot(stats: ConversationStatsSnapshot): MetricsSnapshot {
  let combined: MetricsSnapshot = {
    model_name: 'default',
    accumulated_cost: 0,
    accumulated_token_usage: emptyTokenUsage('default'),
  };
  for (const metrics of Object.values(stats.usage_to_metrics)) {
    combined = {
      ...combined,
      accumulated_cost: combined.accumulated_cost + metrics.accumulated_cost,
      accumulated_token_usage: addTokenUsage(combined.accumulated_token_usage, metrics.accumulated_token_usage),
    };
  }
  return combined;
}
