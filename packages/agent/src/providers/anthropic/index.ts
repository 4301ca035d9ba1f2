export type { AnthropicLLMConfig, AnthropicPromptCaching } from './anthropic-config.js';
export { createAnthropicLLM } from './anthropic-llm.js';
