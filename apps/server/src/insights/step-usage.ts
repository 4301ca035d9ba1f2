import type { Metrics } from '@x/agent';
import { z } from 'zod';

/** One LLM response of a conversation, as the per-step chart draws it. */
export const stepUsageSchema = z.object({
  /** 1-based position among all the conversation's responses (per usage id in recording order). */
  step: z.number().int().min(1),
  usage_id: z.string(),
  model: z.string(),
  response_id: z.string(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  reasoning_tokens: z.number().int(),
  latency_seconds: z.number(),
  /** USD; null when the recorded costs cannot be matched to responses one to one (see `stepUsage`). */
  cost: z.number().nullable(),
});
export type StepUsage = z.infer<typeof stepUsageSchema>;

/**
 * Per-response rows from the full metrics of base_state.json (§8.7). Every response has a latency record (with
 * its response id), token usage is keyed by response id, but a cost record carries no response id and is only
 * written when the cost is positive. So costs are matched by position when there is one per response, or one
 * per response that counted tokens (a priced model: each of those has a cost); no costs at all means 0 each;
 * anything else is ambiguous and gives `null` rather than a guess.
 */
export function stepUsage(usageToMetrics: Readonly<Record<string, Metrics>>): StepUsage[] {
  const rows: StepUsage[] = [];
  for (const [usageId, metrics] of Object.entries(usageToMetrics)) {
    const usages = new Map(metrics.token_usages.map((usage) => [usage.response_id, usage]));
    const responses = metrics.response_latencies;
    const withTokens = responses.filter((response) => usages.has(response.response_id));
    const costs = metrics.costs.map((entry) => entry.cost);
    const costOf = (response: (typeof responses)[number], index: number): number | null => {
      if (costs.length === 0) return 0;
      if (costs.length === responses.length) return costs[index] ?? null;
      if (costs.length === withTokens.length) {
        const position = withTokens.indexOf(response);
        return position === -1 ? 0 : (costs[position] ?? null);
      }
      return null;
    };
    responses.forEach((response, index) => {
      const usage = usages.get(response.response_id);
      rows.push({
        step: 0,
        usage_id: usageId,
        model: response.model || metrics.model_name,
        response_id: response.response_id,
        prompt_tokens: usage?.prompt_tokens ?? 0,
        completion_tokens: usage?.completion_tokens ?? 0,
        cache_read_tokens: usage?.cache_read_tokens ?? 0,
        reasoning_tokens: usage?.reasoning_tokens ?? 0,
        latency_seconds: response.latency,
        cost: costOf(response, index),
      });
    });
  }
  return rows.map((row, index) => ({ ...row, step: index + 1 }));
}
