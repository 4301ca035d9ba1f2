import { z } from 'zod';

/** One LLM response of a conversation, as the per-step chart draws it. */
export const stepUsageSchema = z.object({
  /** 1-based, in log order. */
  step: z.number().int().min(1),
  usage_id: z.string(),
  model: z.string(),
  /** The `llm_response_id` of the agent event the response produced, when one follows it. */
  response_id: z.string().nullable(),
  /** The `stats` ConversationStateUpdateEvent that recorded the response. */
  event_id: z.string(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cache_read_tokens: z.number().int(),
  cache_write_tokens: z.number().int(),
  reasoning_tokens: z.number().int(),
  /** USD. */
  cost: z.number(),
});
export type StepUsage = z.infer<typeof stepUsageSchema>;

/** What the steps need of an event. */
export interface StepEventInput {
  readonly id: string;
  readonly kind: string;
  readonly key?: unknown;
  readonly value?: unknown;
  readonly llm_response_id?: unknown;
}

interface Figures {
  model: string;
  cost: number;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
}

const ZERO: Omit<Figures, 'model'> = {
  cost: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
};

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** usage id → accumulated figures, from a stats snapshot (§3.12); tolerant of missing fields. */
function figuresOf(value: unknown): Map<string, Figures> {
  const figures = new Map<string, Figures>();
  const usage = (value as { usage_to_metrics?: unknown } | null)?.usage_to_metrics;
  if (typeof usage !== 'object' || usage === null) return figures;
  for (const [usageId, raw] of Object.entries(usage as Record<string, unknown>)) {
    const metrics = (raw ?? {}) as Record<string, unknown>;
    const tokens = (metrics.accumulated_token_usage ?? {}) as Record<string, unknown>;
    figures.set(usageId, {
      model: typeof metrics.model_name === 'string' ? metrics.model_name : '',
      cost: count(metrics.accumulated_cost),
      prompt_tokens: count(tokens.prompt_tokens),
      completion_tokens: count(tokens.completion_tokens),
      cache_read_tokens: count(tokens.cache_read_tokens),
      cache_write_tokens: count(tokens.cache_write_tokens),
      reasoning_tokens: count(tokens.reasoning_tokens),
    });
  }
  return figures;
}

/**
 * Tokens and cost per LLM response, from the log. The state keeps only accumulated figures, but every response
 * that changes them is recorded as a `stats` ConversationStateUpdateEvent (§3.12, snapshot form): the response's
 * figures are the difference from the snapshot before it, for the usage id that changed. Stats are
 * conversation-wide (moving HEAD does not change them), so "before" is in log order, across branches. A response
 * that changed nothing recorded no event and is not a step; a figure that went down (a fork that reset its
 * metrics) counts from zero. The response id is the `llm_response_id` of the next agent event (the stats update
 * is written just before the event the response produced).
 */
export function stepUsage(events: readonly StepEventInput[]): StepUsage[] {
  const steps: StepUsage[] = [];
  let previous = new Map<string, Figures>();
  let awaitingResponseId: StepUsage[] = [];
  for (const event of events) {
    if (typeof event.llm_response_id === 'string' && awaitingResponseId.length > 0) {
      for (const step of awaitingResponseId) step.response_id = event.llm_response_id;
      awaitingResponseId = [];
    }
    if (event.kind !== 'ConversationStateUpdateEvent' || event.key !== 'stats') continue;
    const next = figuresOf(event.value);
    for (const [usageId, now] of next) {
      const before = previous.get(usageId) ?? { model: now.model, ...ZERO };
      const delta = (field: keyof typeof ZERO) =>
        now[field] >= before[field] ? now[field] - before[field] : now[field];
      const step: StepUsage = {
        step: steps.length + 1,
        usage_id: usageId,
        model: now.model,
        response_id: null,
        event_id: event.id,
        prompt_tokens: delta('prompt_tokens'),
        completion_tokens: delta('completion_tokens'),
        cache_read_tokens: delta('cache_read_tokens'),
        cache_write_tokens: delta('cache_write_tokens'),
        reasoning_tokens: delta('reasoning_tokens'),
        cost: delta('cost'),
      };
      if ((Object.keys(ZERO) as (keyof typeof ZERO)[]).some((field) => step[field] !== 0)) {
        steps.push(step);
        awaitingResponseId.push(step);
      }
    }
    previous = next;
  }
  return steps;
}
