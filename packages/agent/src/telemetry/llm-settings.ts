import type { LLM } from '../llm/llm.js';

/** Request parameters of an LLM that its spans report (the LLM interface itself does not expose them). */
export interface LLMSettings {
  temperature?: number;
  maxOutputTokens?: number;
  baseURL?: string;
}

const settings = new WeakMap<object, LLMSettings>();

/** Remembers `llm`'s request parameters for its `chat` spans; returns `llm`. */
export function describeLLM<T extends LLM>(llm: T, options: LLMSettings): T {
  const { temperature, maxOutputTokens, baseURL } = options;
  settings.set(llm, {
    ...(temperature !== undefined && { temperature }),
    ...(maxOutputTokens !== undefined && { maxOutputTokens }),
    ...(baseURL !== undefined && { baseURL }),
  });
  return llm;
}

export function llmSettings(llm: LLM): LLMSettings {
  return settings.get(llm) ?? {};
}
