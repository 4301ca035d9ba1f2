import type { LLMResponse } from '../llm/llm.js';
import {
  type ConversationStatsSnapshot,
  emptyMetrics,
  type MetricsSnapshot,
  recordSnapshotResponse,
} from '../llm/metrics.js';

/**
 * The stats after one more LLM response. The state keeps the snapshot form (accumulated figures
 * only, no per-response lists), so recording a response costs the same at step 10 and step 10,000.
 * Every entry is a fresh object in the snapshot's field order (what `statsSnapshot` makes of them); the
 * one the response is recorded in comes from `recordSnapshotResponse`, the others are copies.
 */
export function accumulateStats(
  stats: ConversationStatsSnapshot,
  llm: { usageId: string; model: string },
  response: LLMResponse,
): ConversationStatsSnapshot {
  const usage: Record<string, MetricsSnapshot> = {};
  for (const [usageId, snapshot] of Object.entries(stats.usage_to_metrics)) {
    usage[usageId] = usageId === llm.usageId ? recordSnapshotResponse(snapshot, response) : copyEntry(snapshot);
  }
  if (!Object.hasOwn(stats.usage_to_metrics, llm.usageId)) {
    usage[llm.usageId] = recordSnapshotResponse(copyEntry(emptyMetrics(llm.model)), response);
  }
  return { usage_to_metrics: usage };
}

/** The entry as `statsSnapshot` writes it: its accumulated figures, in the snapshot's field order. */
function copyEntry(snapshot: MetricsSnapshot): MetricsSnapshot {
  const copy: MetricsSnapshot = {
    model_name: snapshot.model_name,
    accumulated_cost: snapshot.accumulated_cost,
    accumulated_token_usage: snapshot.accumulated_token_usage,
  };
  if (snapshot.max_budget_per_task !== undefined) copy.max_budget_per_task = snapshot.max_budget_per_task;
  return copy;
}
