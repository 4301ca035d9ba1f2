import type { Message } from '@x/events';
import { costOf } from '../../llm/internal/usage.js';
import type { LLMFinishReason, LLMResponse } from '../../llm/llm.js';
import type { BaseLLMConfig } from '../../llm/llm-config.js';
import type { TokenUsage } from '../../llm/metrics.js';
import { pricingFor } from '../../llm/pricing.js';

/** The LLMResponse every provider returns, with the cost from the configured pricing or the price table. */
export function finishResponse(
  config: BaseLLMConfig,
  parts: {
    id: string;
    message: Message;
    finishReason: LLMFinishReason | null;
    providerFinishReason: string | null;
    usage: TokenUsage | null;
    startedAt: number;
  },
): LLMResponse {
  return {
    id: parts.id,
    message: parts.message,
    finishReason: parts.finishReason,
    providerFinishReason: parts.providerFinishReason,
    usage: parts.usage,
    cost: costOf(parts.usage, config.pricing ?? pricingFor(config.model)),
    latencySeconds: (performance.now() - parts.startedAt) / 1000,
  };
}

/** The model name without the `provider/` prefix used to choose the provider. */
export function wireModel(model: string, prefixes: readonly string[]): string {
  for (const prefix of prefixes) if (model.startsWith(`${prefix}/`)) return model.slice(prefix.length + 1);
  return model;
}

/** A client created on first use (the SDK is imported then), shared by later calls. */
export function lazy<T>(create: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= create().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/** Tool-call arguments as an object (Anthropic and Gemini want one); non-objects are kept under `arguments`. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: kept whole below
  }
  return text.trim() === '' ? {} : { arguments: text };
}
