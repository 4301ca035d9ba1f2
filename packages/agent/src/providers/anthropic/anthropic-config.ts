import type { BaseLLMConfig } from '../../llm/llm-config.js';

/** Anthropic prompt caching: which parts of the request carry `cache_control: ephemeral`. */
export interface AnthropicPromptCaching {
  /** Mark the last system block (default true). */
  system?: boolean;
  /** Mark the last tool definition (default true). */
  tools?: boolean;
  /**
   * Mark the last block of this many most recent user turns (default 2). Anthropic allows 4 marks in all: the
   * turns get only those the system prompt and tools leave (the most recent turns first).
   */
  recentTurns?: number;
}

/** Configuration of `createAnthropicLLM` (Anthropic Messages API through `@anthropic-ai/sdk`). */
export interface AnthropicLLMConfig extends BaseLLMConfig {
  /**
   * Extended thinking: `{ budgetTokens }` (≥ 1024, below `maxOutputTokens`) or `{ type: 'adaptive' }`
   * for models that decide themselves. Thinking blocks and their signatures are stored on the events
   * and sent back on later turns. Default: off.
   */
  thinking?: { budgetTokens: number } | { type: 'adaptive' };
  /** Prompt caching (default on: system, tools and the two most recent user turns); false turns it off. */
  promptCaching?: boolean | AnthropicPromptCaching;
  /** Required by the API; default 8192 (raised above the thinking budget when needed). */
  maxOutputTokens?: number;
}
