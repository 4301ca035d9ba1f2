import { createLLM, type ProviderName, providerForModel, providerNames } from '../providers/create-llm.js';
import type { LLM } from './llm.js';

export const defaultModel = 'gpt-4o-mini';

/** Per provider: the environment variables of its key and endpoint, and the model used when none is named. */
const providerEnv: Record<ProviderName, { keys: string[]; baseURL: string[]; model: string }> = {
  openai: { keys: ['OPENAI_API_KEY'], baseURL: ['OPENAI_BASE_URL'], model: defaultModel },
  'openai-responses': { keys: ['OPENAI_API_KEY'], baseURL: ['OPENAI_BASE_URL'], model: 'gpt-5-mini' },
  anthropic: { keys: ['ANTHROPIC_API_KEY'], baseURL: ['ANTHROPIC_BASE_URL'], model: 'anthropic/claude-sonnet-4-6' },
  gemini: {
    keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseURL: ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'],
    model: 'gemini/gemini-2.5-flash',
  },
};

export interface LLMOverrides {
  model?: string;
  baseURL?: string;
  apiKey?: string;
  provider?: ProviderName;
}

function first(env: Record<string, string | undefined>, names: string[]): string | undefined {
  for (const name of names) if (env[name]) return env[name];
  return undefined;
}

function isProvider(value: string | undefined): value is ProviderName {
  return value !== undefined && (providerNames as readonly string[]).includes(value);
}

/**
 * The LLM described by the environment and the overrides. The model is `overrides.model`, else
 * `X_MODEL`; the provider is `overrides.provider`, else `X_PROVIDER`, else the model's (see
 * `providerForModel`). With no model named, the first provider with a key (OpenAI, Anthropic, Gemini)
 * is used with its default model. The key and endpoint come from the overrides, else the provider's
 * variables (`OPENAI_API_KEY` / `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY` / `ANTHROPIC_BASE_URL`,
 * `GEMINI_API_KEY` or `GOOGLE_API_KEY` / `GEMINI_BASE_URL`). Returns `undefined` when there is no key,
 * so the caller can fall back to the offline model.
 */
export function resolveLLMFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: LLMOverrides = {},
): LLM | undefined {
  const named = overrides.model ?? env.X_MODEL;
  const explicit = overrides.provider ?? (isProvider(env.X_PROVIDER) ? env.X_PROVIDER : undefined);
  let provider: ProviderName | undefined = explicit ?? (named === undefined ? undefined : providerForModel(named));
  if (provider === undefined) {
    provider = (['openai', 'anthropic', 'gemini'] as const).find((name) => first(env, providerEnv[name].keys));
    if (provider === undefined) return undefined;
  }
  const settings = providerEnv[provider];
  const apiKey = overrides.apiKey ?? first(env, settings.keys);
  if (!apiKey) return undefined;
  const baseURL = overrides.baseURL ?? first(env, settings.baseURL);
  return createLLM({
    model: named ?? settings.model,
    provider,
    apiKey,
    ...(baseURL && { baseURL }),
  });
}
