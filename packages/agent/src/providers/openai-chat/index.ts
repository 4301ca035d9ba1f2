// OpenAI Chat Completions (and every OpenAI-compatible server): the client lives in llm/ since it was first.
export { createOpenAILLM, type LLMConfig } from '../../llm/openai-llm.js';
