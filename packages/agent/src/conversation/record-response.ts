import { type AnyEvent, createEvent } from '@x/events';
import type { LLM, LLMResponse } from '../llm/llm.js';
import type { MetricsSnapshot } from '../llm/metrics.js';
import { checkUsageId } from '../llm/usage-id.js';
import { accumulateStats } from '../state/accumulate-stats.js';
import type { ConversationState } from '../state/conversation-state.js';
import { isValidatedStats, markValidatedStats } from '../state/validated-stats.js';

/** Where a conversation's stats updates go (its `ConversationEvents`). */
export interface StatsSink {
  latestStats(): ConversationState['stats'];
  hold(update: AnyEvent): void;
  emit(event: AnyEvent): Promise<void>;
}

/**
 * Records an LLM response's usage and cost as a stats update. `hold`: kept for the step's next event, to be
 * written in one round with it (the caller decides whether the log can: `appendMany`, and with other writers one
 * that lands the batch at the expected index, fenced, in one write).
 */
export async function recordResponse(
  sink: StatsSink,
  call: { llm: LLM; response: LLMResponse; hold: boolean },
): Promise<void> {
  checkUsageId(call.llm.usageId);
  const latest = sink.latestStats();
  const stats = accumulateStats(latest, call.llm, call.response);
  // A response without usage or cost changes nothing in the snapshot: record no event for it.
  if (statsUnchanged(latest, stats, call.llm.usageId)) return;
  const update = createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats });
  // Built from a validated snapshot, with the one entry it changed validated here: the fold need not parse it again.
  if (isValidatedStats(latest) && isValidEntry(stats.usage_to_metrics[call.llm.usageId])) {
    markValidatedStats(update.value as ConversationState['stats']);
  }
  if (call.hold) {
    sink.hold(update);
    return;
  }
  await sink.emit(update);
}

/**
 * Whether `next` (`accumulateStats` of `previous`) has the JSON text of `previous`, without writing either: only
 * the entry the response was recorded in can differ (the others are copies, `copyEntry`), and of it only the cost
 * and the token usage (its model name and budget are copied too). A number compares as JSON writes it (any
 * non-finite one is `null`, -0 is `0`). Held to the JSON comparison it replaced by accumulate-stats.test.ts.
 */
export function statsUnchanged(
  previous: ConversationState['stats'],
  next: ConversationState['stats'],
  usageId: string,
): boolean {
  if (!Object.hasOwn(previous.usage_to_metrics, usageId)) return false;
  const before = previous.usage_to_metrics[usageId]!;
  const after = next.usage_to_metrics[usageId]!;
  if (!sameNumber(before.accumulated_cost, after.accumulated_cost)) return false;
  const left = before.accumulated_token_usage;
  const right = after.accumulated_token_usage;
  if (left === right) return true;
  for (const key of countFields) if (!sameNumber(left[key], right[key])) return false;
  return left.model === right.model && left.response_id === right.response_id;
}

function sameNumber(left: number, right: number): boolean {
  if (left === right) return true;
  return typeof left === 'number' && typeof right === 'number' && !Number.isFinite(left) && !Number.isFinite(right);
}

/** The entry a response changed, checked as the stats schema would (the others come from the validated snapshot). */
function isValidEntry(entry: MetricsSnapshot | undefined): boolean {
  return (
    entry !== undefined &&
    typeof entry.model_name === 'string' &&
    Number.isFinite(entry.accumulated_cost) &&
    entry.accumulated_cost >= 0 &&
    entry.max_budget_per_task !== null &&
    isTokenUsage(entry.accumulated_token_usage)
  );
}

const countFields = [
  'prompt_tokens',
  'completion_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'context_window',
  'per_turn_token',
] as const;

/**
 * `tokenUsageSchema.safeParse(value).success`, without zod's parse (every step, a quarter of this function's
 * time): counts are non-negative integers, labels strings, either may be null or absent. Held to the schema by
 * record-response.test.ts.
 */
export function isTokenUsage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const usage = value as Record<string, unknown>;
  for (const key of countFields) {
    const count = usage[key];
    if (count !== null && count !== undefined && !(Number.isSafeInteger(count) && (count as number) >= 0)) return false;
  }
  for (const key of ['model', 'response_id'] as const) {
    const label = usage[key];
    if (label !== null && label !== undefined && typeof label !== 'string') return false;
  }
  return true;
}
