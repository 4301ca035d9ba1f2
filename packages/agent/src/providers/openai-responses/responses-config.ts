import type { BaseLLMConfig } from '../../llm/llm-config.js';

/** Configuration of `createOpenAIResponsesLLM` (OpenAI Responses API through the `openai` client). */
export interface OpenAIResponsesLLMConfig extends BaseLLMConfig {
  /**
   * Reasoning models (o-series, gpt-5...): `effort` and `summary` (`auto`, `concise`, `detailed`).
   * With it, calls are stateless (`store: false`) and ask for `reasoning.encrypted_content`; the
   * reasoning item (id, summaries, encrypted content) is stored on the events and sent back on the
   * next turn. Default: none (the model's default effort, no encrypted reasoning asked for).
   */
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high' | 'xhigh'; summary?: 'auto' | 'concise' | 'detailed' };
  /** Ask for `reasoning.encrypted_content` (default: true for reasoning models — o-series, gpt-5, codex — or when `reasoning` is set). */
  encryptedReasoning?: boolean;
  /** Let OpenAI store responses (default false: every call carries its whole context). */
  store?: boolean;
}
