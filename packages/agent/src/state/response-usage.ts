import type { AnyEvent } from '@x/events';

/** The usage and cost of one LLM response, as the log recorded it. */
export interface ResponseUsage {
  /** The LLM role it was counted under (`agent`, `condenser`, a sub-agent's). */
  usage_id: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
  cost: number;
}

interface SnapshotMetrics {
  model_name?: string;
  accumulated_cost?: number;
  accumulated_token_usage?: Partial<
    Record<'prompt_tokens' | 'completion_tokens' | 'cache_read_tokens' | 'reasoning_tokens', number>
  >;
}

const counted = ['prompt_tokens', 'completion_tokens', 'cache_read_tokens', 'reasoning_tokens'] as const;

/**
 * The usage and cost of each LLM response, keyed by the `llm_response_id` of the events it produced: read from
 * the log alone (each response's `stats` state update, just before its first event, is the running total after
 * it; the difference from the one before is the response's), so it is the same before and after a resume,
 * in any process. base_state.json keeps only totals (the reference's snapshot form), so the log is where
 * per-response figures live. Usage counted without a response event after it (a side question, a
 * condensation) is left out here; it is in the totals.
 */
export function responseUsages(events: Iterable<AnyEvent>): Map<string, ResponseUsage[]> {
  const byResponse = new Map<string, ResponseUsage[]>();
  let previous: Record<string, SnapshotMetrics> = {};
  let pending: ResponseUsage[] = [];
  for (const event of events) {
    if (event.kind === 'ConversationStateUpdateEvent') {
      if (event.key !== 'stats') continue;
      const current = (event.value as { usage_to_metrics?: Record<string, SnapshotMetrics> } | null)?.usage_to_metrics;
      if (current === undefined || current === null) continue;
      for (const [usageId, metrics] of Object.entries(current)) {
        const usage = difference(usageId, metrics, previous[usageId]);
        if (usage !== undefined) pending.push(usage);
      }
      previous = current;
      continue;
    }
    const responseId = 'llm_response_id' in event ? event.llm_response_id : undefined;
    if (typeof responseId === 'string' && pending.length > 0 && !byResponse.has(responseId)) {
      byResponse.set(responseId, pending);
    }
    pending = [];
  }
  return byResponse;
}

function difference(usageId: string, now: SnapshotMetrics, before: SnapshotMetrics | undefined) {
  const usage: ResponseUsage = {
    usage_id: usageId,
    model: now.model_name ?? '',
    prompt_tokens: 0,
    completion_tokens: 0,
    cache_read_tokens: 0,
    reasoning_tokens: 0,
    cost: Math.max(0, (now.accumulated_cost ?? 0) - (before?.accumulated_cost ?? 0)),
  };
  let changed = usage.cost > 0;
  for (const field of counted) {
    const delta = (now.accumulated_token_usage?.[field] ?? 0) - (before?.accumulated_token_usage?.[field] ?? 0);
    usage[field] = Math.max(0, delta);
    if (delta > 0) changed = true;
  }
  return changed ? usage : undefined;
}
