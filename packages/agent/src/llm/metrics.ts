import { z } from 'zod';
import { copyFields } from '../internal/copy-fields.js';
import { ownEntry } from '../internal/own-entries.js';

// Missing and null are the same (design.md): every defaulted field accepts null or absence.
const count = z
  .number()
  .int()
  .min(0)
  .nullish()
  .transform((value) => value ?? 0);
const label = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** Token counts of one LLM response, or a running total (§8.7 TokenUsage). */
export const tokenUsageSchema = z.object({
  /** Model the usage belongs to ("" when unknown). */
  model: label,
  prompt_tokens: count,
  completion_tokens: count,
  /** Prompt tokens served from the provider's prompt cache. */
  cache_read_tokens: count,
  /** Prompt tokens written to the provider's prompt cache. */
  cache_write_tokens: count,
  reasoning_tokens: count,
  /** Input limit of the model; a running total keeps the maximum seen. */
  context_window: count,
  /** prompt + completion of the latest response. */
  per_turn_token: count,
  response_id: label,
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** One cost record; `timestamp` is epoch seconds. */
export const costSchema = z.object({
  model: z.string(),
  cost: z.number().min(0),
  timestamp: z.number(),
});
export type Cost = z.infer<typeof costSchema>;

/** Wall-clock seconds one LLM call took. */
export const responseLatencySchema = z.object({
  model: z.string(),
  latency: z.number().min(0),
  response_id: z.string(),
});
export type ResponseLatency = z.infer<typeof responseLatencySchema>;

const snapshotShape = {
  model_name: z
    .string()
    .nullish()
    .transform((value) => value ?? 'default'),
  accumulated_cost: z
    .number()
    .min(0)
    .nullish()
    .transform((value) => value ?? 0),
  /** Spending limit for the task; absent when there is none. */
  max_budget_per_task: z.number().nullish(),
  accumulated_token_usage: tokenUsageSchema.nullish(),
};

type Normalized<T> = Omit<T, 'accumulated_token_usage' | 'max_budget_per_task'> & {
  accumulated_token_usage: TokenUsage;
  max_budget_per_task?: number;
};

// The reference leaves accumulated_token_usage nullable but always initialises it to a zero usage
// named after the model; doing the same at parse time spares every reader a null check. A null budget
// becomes an absent key, as everywhere else in the wire types.
function normalize<
  T extends { model_name: string; accumulated_token_usage?: TokenUsage | null; max_budget_per_task?: number | null },
>(value: T): Normalized<T> {
  const { accumulated_token_usage, max_budget_per_task, ...rest } = value;
  const result: Normalized<T> = {
    ...rest,
    accumulated_token_usage: accumulated_token_usage ?? emptyTokenUsage(value.model_name),
  };
  if (max_budget_per_task !== null && max_budget_per_task !== undefined) {
    result.max_budget_per_task = max_budget_per_task;
  }
  return result;
}

/** Metrics of one LLM (one usage id), with the full record lists (§8.7). */
export const metricsSchema = z
  .object({
    ...snapshotShape,
    costs: z
      .array(costSchema)
      .nullish()
      .transform((value) => value ?? []),
    response_latencies: z
      .array(responseLatencySchema)
      .nullish()
      .transform((value) => value ?? []),
    token_usages: z
      .array(tokenUsageSchema)
      .nullish()
      .transform((value) => value ?? []),
  })
  .transform(normalize);
export type Metrics = z.infer<typeof metricsSchema>;

/** Metrics without the record lists: the form published in state-update events (§3.12). */
export const metricsSnapshotSchema = z.object(snapshotShape).transform(normalize);
export type MetricsSnapshot = z.infer<typeof metricsSnapshotSchema>;

/** `{ usage_to_metrics: { [usageId]: Metrics } }`: one entry per LLM role (agent, condenser, ...). */
export const conversationStatsSchema = z.object({
  usage_to_metrics: z.record(z.string(), metricsSchema),
});
export type ConversationStats = z.infer<typeof conversationStatsSchema>;

export const conversationStatsSnapshotSchema = z.object({
  usage_to_metrics: z.record(z.string(), metricsSnapshotSchema),
});
export type ConversationStatsSnapshot = z.infer<typeof conversationStatsSnapshotSchema>;

/** What `recordResponse` needs from an LLM response (an `LLMResponse` fits). */
export interface ResponseRecord {
  id: string;
  usage: TokenUsage | null;
  cost: number;
  latencySeconds: number;
}

export function emptyTokenUsage(model = ''): TokenUsage {
  return {
    model,
    prompt_tokens: 0,
    completion_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    context_window: 0,
    per_turn_token: 0,
    response_id: '',
  };
}

export function emptyMetrics(model = 'default'): Metrics {
  return {
    model_name: model,
    accumulated_cost: 0,
    accumulated_token_usage: emptyTokenUsage(model),
    costs: [],
    response_latencies: [],
    token_usages: [],
  };
}

export function emptyStats(): ConversationStats {
  return { usage_to_metrics: {} };
}

/**
 * The §8.7 addition: counts are summed, `context_window` is the maximum, `per_turn_token` is the right
 * operand's, `model` and `response_id` are the left operand's.
 */
export function addTokenUsage(left: TokenUsage, right: TokenUsage): TokenUsage {
  return {
    model: left.model,
    prompt_tokens: left.prompt_tokens + right.prompt_tokens,
    completion_tokens: left.completion_tokens + right.completion_tokens,
    cache_read_tokens: left.cache_read_tokens + right.cache_read_tokens,
    cache_write_tokens: left.cache_write_tokens + right.cache_write_tokens,
    reasoning_tokens: left.reasoning_tokens + right.reasoning_tokens,
    context_window: Math.max(left.context_window, right.context_window),
    per_turn_token: right.per_turn_token,
    response_id: left.response_id,
  };
}

function isMeaningful(usage: TokenUsage | null): usage is TokenUsage {
  return usage !== null && (usage.prompt_tokens > 0 || usage.completion_tokens > 0);
}

/**
 * Returns new metrics with one response recorded: a latency record always, a cost record when the cost
 * is positive, and the token usage (appended and added into the running total) when it counts tokens.
 */
export function recordResponse(metrics: Metrics, response: ResponseRecord, now: Date = new Date()): Metrics {
  const model = metrics.model_name;
  // Copies and stores, not spreads followed by fields: see `copyFields` (once a step each).
  const next = copyFields(metrics);
  next.response_latencies = [
    ...metrics.response_latencies,
    { model, latency: Math.max(0, response.latencySeconds), response_id: response.id },
  ];
  if (response.cost > 0) {
    next.accumulated_cost = metrics.accumulated_cost + response.cost;
    next.costs = [...metrics.costs, { model, cost: response.cost, timestamp: now.getTime() / 1000 }];
  }
  if (isMeaningful(response.usage)) {
    const usage = copyFields(response.usage);
    usage.model = model;
    usage.per_turn_token = response.usage.prompt_tokens + response.usage.completion_tokens;
    usage.response_id = response.id;
    next.token_usages = [...metrics.token_usages, usage];
    next.accumulated_token_usage = addTokenUsage(metrics.accumulated_token_usage, usage);
  }
  return next;
}

/**
 * `recordResponse` for the snapshot form (no record lists): the accumulated figures `statsSnapshot` would take from
 * `recordResponse`'s result, without building the lists and the copies only to drop them. What a response leaves
 * alone is kept as it is (the same `accumulated_token_usage` object when it counts no tokens), so a caller can tell
 * a change by identity and value. Held to `statsSnapshot(recordResponse(...))` by accumulate-stats.test.ts.
 */
export function recordSnapshotResponse(snapshot: MetricsSnapshot, response: ResponseRecord): MetricsSnapshot {
  const usage = response.usage;
  const next: MetricsSnapshot = {
    model_name: snapshot.model_name,
    accumulated_cost: response.cost > 0 ? snapshot.accumulated_cost + response.cost : snapshot.accumulated_cost,
    accumulated_token_usage: isMeaningful(usage)
      ? addTokenUsage(snapshot.accumulated_token_usage, {
          model: snapshot.model_name,
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: usage.completion_tokens,
          cache_read_tokens: usage.cache_read_tokens,
          cache_write_tokens: usage.cache_write_tokens,
          reasoning_tokens: usage.reasoning_tokens,
          context_window: usage.context_window,
          per_turn_token: usage.prompt_tokens + usage.completion_tokens,
          response_id: '',
        })
      : snapshot.accumulated_token_usage,
  };
  if (snapshot.max_budget_per_task !== undefined) next.max_budget_per_task = snapshot.max_budget_per_task;
  return next;
}

/**
 * Records a response under the LLM's usage id, creating its metrics on first use. An existing entry is
 * kept (the first LLM registered with a usage id wins, §8.7), so its model name is not replaced.
 */
export function recordStatsResponse(
  stats: ConversationStats,
  llm: { usageId: string; model: string },
  response: ResponseRecord,
): ConversationStats {
  // Own entries only: a usage id `constructor` starts from empty metrics, not from Object.
  const current = ownEntry(stats.usage_to_metrics, llm.usageId) ?? emptyMetrics(llm.model);
  return { usage_to_metrics: { ...stats.usage_to_metrics, [llm.usageId]: recordResponse(current, response) } };
}

/** All usage ids merged into one Metrics named "default" (the reference's `get_combined_metrics`). */
export function combineMetrics(stats: ConversationStats): Metrics {
  let total = emptyMetrics('default');
  for (const metrics of Object.values(stats.usage_to_metrics)) {
    total = {
      model_name: total.model_name,
      accumulated_cost: total.accumulated_cost + metrics.accumulated_cost,
      max_budget_per_task: total.max_budget_per_task ?? metrics.max_budget_per_task,
      accumulated_token_usage: addTokenUsage(total.accumulated_token_usage, metrics.accumulated_token_usage),
      costs: [...total.costs, ...metrics.costs],
      response_latencies: [...total.response_latencies, ...metrics.response_latencies],
      token_usages: [...total.token_usages, ...metrics.token_usages],
    };
    if (total.max_budget_per_task === undefined) delete total.max_budget_per_task;
  }
  return total;
}

/** The snapshot form of §3.12: each entry without its `costs`, `response_latencies` and `token_usages`. */
export function statsSnapshot(stats: ConversationStats): ConversationStatsSnapshot {
  const usageToMetrics: Record<string, MetricsSnapshot> = {};
  for (const [usageId, metrics] of Object.entries(stats.usage_to_metrics)) {
    const snapshot: MetricsSnapshot = {
      model_name: metrics.model_name,
      accumulated_cost: metrics.accumulated_cost,
      accumulated_token_usage: metrics.accumulated_token_usage,
    };
    if (metrics.max_budget_per_task !== undefined) snapshot.max_budget_per_task = metrics.max_budget_per_task;
    usageToMetrics[usageId] = snapshot;
  }
  return { usage_to_metrics: usageToMetrics };
}
