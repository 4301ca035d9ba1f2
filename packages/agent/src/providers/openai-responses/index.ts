export type { OpenAIResponsesLLMConfig } from './responses-config.js';
export { createOpenAIResponsesLLM } from './responses-llm.js';
