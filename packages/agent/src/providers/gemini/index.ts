export type { GeminiLLMConfig } from './gemini-config.js';
export { createGeminiLLM } from './gemini-llm.js';
export { type GeminiContent, type GeminiPart, type GeminiRendered, toGeminiContents } from './gemini-render.js';
