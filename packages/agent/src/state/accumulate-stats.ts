import type { LLMResponse } from '../llm/llm.js';
import {
  type ConversationStatsSnapshot,
  emptyMetrics,
  type Metrics,
  recordResponse,
  statsSnapshot,
} from '../llm/metrics.js';

/**
 * The stats after one more LLM response. The state keeps the snapshot form (accumulated figures
 * only, no per-response lists), so recording a response costs the same at step 10 and step 10,000.
 */
export function accumulateStats(
  stats: ConversationStatsSnapshot,
  llm: { usageId: string; model: string },
  response: LLMResponse,
): ConversationStatsSnapshot {
  const usage: Record<string, Metrics> = {};
  for (const [usageId, snapshot] of Object.entries(stats.usage_to_metrics)) {
    // `{ ...emptyMetrics(model), ...snapshot }` as one assign onto the fresh object (see `copyFields`); a
    // `__proto__` field keeps the spreads, which keep it a field.
    const metrics = emptyMetrics(snapshot.model_name);
    usage[usageId] = Object.hasOwn(snapshot, '__proto__')
      ? { ...metrics, ...snapshot }
      : Object.assign(metrics, snapshot);
  }
  usage[llm.usageId] = recordResponse(usage[llm.usageId] ?? emptyMetrics(llm.model), response);
  return statsSnapshot({ usage_to_metrics: usage });
}
