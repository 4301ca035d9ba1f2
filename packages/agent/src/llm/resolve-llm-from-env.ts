import type { LLM } from './llm.js';
import { createOpenAILLM } from './openai-llm.js';

export const defaultModel = 'gpt-4o-mini';

/**
 * The LLM described by the environment: an OpenAI-compatible client when `OPENAI_API_KEY` is set
 * (endpoint `OPENAI_BASE_URL`, model from `overrides.model`, else `X_MODEL`, else gpt-4o-mini), else
 * `undefined` so the caller can fall back to the offline model.
 */
export function resolveLLMFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: { model?: string; baseURL?: string } = {},
): LLM | undefined {
  const apiKey = env.OPENAI_API_KEY;
  if (!apiKey) return undefined;
  const baseURL = overrides.baseURL ?? env.OPENAI_BASE_URL;
  return createOpenAILLM({
    model: overrides.model ?? env.X_MODEL ?? defaultModel,
    apiKey,
    ...(baseURL && { baseURL }),
  });
}
