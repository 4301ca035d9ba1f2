import type { CompletionUsage } from 'openai/resources/completions';
import type { TokenUsage } from '../metrics.js';

export interface Pricing {
  /** Dollars per million prompt tokens that were not served from the cache. */
  inputPerMillion: number;
  outputPerMillion: number;
  /** Dollars per million cached prompt tokens; defaults to `inputPerMillion`. */
  cachedInputPerMillion?: number;
}

function numberAt(value: unknown, key: string): number {
  if (typeof value !== 'object' || value === null) return 0;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'number' && Number.isFinite(field) && field > 0 ? field : 0;
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
  const prompt = numberAt(usage, 'prompt_tokens');
  const completion = numberAt(usage, 'completion_tokens');
  const cacheRead =
    numberAt(usage.prompt_tokens_details, 'cached_tokens') ||
    numberAt(usage, 'cached_tokens') ||
    numberAt(usage, 'cache_read_input_tokens');
  const cacheWrite =
    numberAt(usage.prompt_tokens_details, 'cache_creation_tokens') || numberAt(usage, 'cache_creation_input_tokens');
  return {
    model: options.model,
    prompt_tokens: prompt,
    completion_tokens: completion,
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    reasoning_tokens: numberAt(usage.completion_tokens_details, 'reasoning_tokens'),
    context_window: options.contextWindow,
    per_turn_token: prompt + completion,
    response_id: options.responseId,
  };
}

export function costOf(usage: TokenUsage | null, pricing: Pricing | undefined): number {
  if (!usage || !pricing) return 0;
  const cached = Math.min(usage.cache_read_tokens, usage.prompt_tokens);
  const uncached = usage.prompt_tokens - cached;
  const cachedPrice = pricing.cachedInputPerMillion ?? pricing.inputPerMillion;
  return (
    (uncached * pricing.inputPerMillion + cached * cachedPrice + usage.completion_tokens * pricing.outputPerMillion) /
    1_000_000
  );
}
