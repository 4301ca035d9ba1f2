import type { BaseLLMConfig } from '../../llm/llm-config.js';

/** Configuration of `createGeminiLLM` (Google Gemini API through `@google/genai`). */
export interface GeminiLLMConfig extends BaseLLMConfig {
  /**
   * Thinking: `budgetTokens` (-1 lets the model decide, 0 turns it off where allowed), `level` for
   * Gemini 3 (`low` / `high`), and `includeThoughts` (default true) to receive thought summaries as
   * `reasoning_content`. Thought signatures are always kept and sent back. Default: the model's default.
   */
  thinking?: { budgetTokens?: number; level?: 'low' | 'high'; includeThoughts?: boolean };
  /** First retry delay in milliseconds (the SDK doubles it per retry, up to 60 s). Default 1000. */
  retryDelayMs?: number;
}
