import type { CompletionUsage } from 'openai/resources/completions';
import type { TokenUsage } from '../metrics.js';
import type { Pricing } from '../pricing.js';

export type { Pricing } from '../pricing.js';

export function numberAt(value: unknown, key: string): number {
  if (typeof value !== 'object' || value === null) return 0;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'number' && Number.isFinite(field) && field > 0 ? field : 0;
}

/** A TokenUsage from counts; `prompt` includes cached tokens (the reference's convention). */
export function tokenUsage(counts: {
  model: string;
  responseId: string;
  contextWindow: number;
  prompt: number;
  completion: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}): TokenUsage {
  return {
    model: counts.model,
    prompt_tokens: counts.prompt,
    completion_tokens: counts.completion,
    cache_read_tokens: counts.cacheRead ?? 0,
    cache_write_tokens: counts.cacheWrite ?? 0,
    reasoning_tokens: counts.reasoning ?? 0,
    context_window: counts.contextWindow,
    per_turn_token: counts.prompt + counts.completion,
    response_id: counts.responseId,
  };
}

/**
 * Chat Completions usage → TokenUsage. Providers differ in where they put cache counts: OpenAI uses
 * `prompt_tokens_details.cached_tokens`, some proxies a top-level `cached_tokens`, Anthropic-style
 * gateways `cache_creation_input_tokens` / `cache_read_input_tokens`, so all of those are read.
 */
export function tokenUsageFromCompletion(
  usage: CompletionUsage | null | undefined,
  options: { model: string; responseId: string; contextWindow: number },
): TokenUsage | null {
  if (!usage) return null;
  return tokenUsage({
    ...options,
    prompt: numberAt(usage, 'prompt_tokens'),
    completion: numberAt(usage, 'completion_tokens'),
    cacheRead:
      numberAt(usage.prompt_tokens_details, 'cached_tokens') ||
      numberAt(usage, 'cached_tokens') ||
      numberAt(usage, 'cache_read_input_tokens'),
    cacheWrite:
      numberAt(usage.prompt_tokens_details, 'cache_creation_tokens') || numberAt(usage, 'cache_creation_input_tokens'),
    reasoning: numberAt(usage.completion_tokens_details, 'reasoning_tokens'),
  });
}

/** Dollars for one response: cache reads and writes at their own prices, the rest of the prompt at the input price. */
export function costOf(usage: TokenUsage | null, pricing: Pricing | undefined): number {
  if (!usage || !pricing) return 0;
  const cached = Math.min(usage.cache_read_tokens, usage.prompt_tokens);
  const written = Math.min(usage.cache_write_tokens, usage.prompt_tokens - cached);
  const uncached = usage.prompt_tokens - cached - written;
  const cachedPrice = pricing.cachedInputPerMillion ?? pricing.inputPerMillion;
  const writePrice = pricing.cacheWritePerMillion ?? pricing.inputPerMillion;
  return (
    (uncached * pricing.inputPerMillion +
      cached * cachedPrice +
      written * writePrice +
      usage.completion_tokens * pricing.outputPerMillion) /
    1_000_000
  );
}
