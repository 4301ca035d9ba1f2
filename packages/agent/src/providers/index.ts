export type { AnthropicLLMConfig, AnthropicPromptCaching } from './anthropic/index.js';
export { createAnthropicLLM } from './anthropic/index.js';
export { type CreateLLMOptions, createLLM, type ProviderName, providerForModel, providerNames } from './create-llm.js';
export type { GeminiLLMConfig } from './gemini/index.js';
export {
  createGeminiLLM,
  type GeminiContent,
  type GeminiPart,
  type GeminiRendered,
  toGeminiContents,
} from './gemini/index.js';
export type { OpenAIResponsesLLMConfig } from './openai-responses/index.js';
export { createOpenAIResponsesLLM } from './openai-responses/index.js';
