import type { Pricing } from './pricing.js';

/** Options every provider accepts (each provider adds its own). */
export interface BaseLLMConfig {
  /** The model name as the provider knows it (a `provider/` prefix is removed before sending). */
  model: string;
  /** Default: the provider's usual environment variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`). */
  apiKey?: string;
  /** Endpoint root; default the vendor's (or its `*_BASE_URL` environment variable). */
  baseURL?: string;
  /** Per attempt. Default 120000. */
  timeoutMs?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of 408/409/429/5xx/timeouts/connection errors, with the SDK's backoff. Default 4. */
  maxRetries?: number;
  /** Key of this LLM's metrics in ConversationStats. Default "default". */
  usageId?: string;
  /** Prices for this LLM; default: the price table (`pricingFor`, extended by `registerPricing`). */
  pricing?: Pricing;
  /** Stream every call (also implied by an `onDelta` callback on the request). */
  stream?: boolean;
  temperature?: number;
  /** The output limit per call. */
  maxOutputTokens?: number;
  /** The model's input limit, reported in TokenUsage.context_window. */
  contextWindow?: number;
  /** Send images to the model (default true); false drops them from requests. */
  vision?: boolean;
}
