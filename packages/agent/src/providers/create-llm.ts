import type { LLM } from '../llm/llm.js';
import { createOpenAILLM } from '../llm/openai-llm.js';
import { describeLLM } from '../telemetry/llm-settings.js';
import type { AnthropicLLMConfig } from './anthropic/anthropic-config.js';
import { createAnthropicLLM } from './anthropic/anthropic-llm.js';
import type { GeminiLLMConfig } from './gemini/gemini-config.js';
import { createGeminiLLM } from './gemini/gemini-llm.js';
import type { OpenAIResponsesLLMConfig } from './openai-responses/responses-config.js';
import { createOpenAIResponsesLLM } from './openai-responses/responses-llm.js';

/** The wire protocols x speaks. `openai` is Chat Completions (and any OpenAI-compatible server). */
export const providerNames = ['openai', 'openai-responses', 'anthropic', 'gemini'] as const;
export type ProviderName = (typeof providerNames)[number];

/** Options of `createLLM`: every provider's options; each provider reads its own. */
export type CreateLLMOptions = Omit<AnthropicLLMConfig, 'thinking'> &
  Omit<OpenAIResponsesLLMConfig, never> &
  Omit<GeminiLLMConfig, 'thinking'> & {
    /** Default: chosen from the model name (`providerForModel`). */
    provider?: ProviderName;
    /** Anthropic: `{ budgetTokens }` or `{ type: 'adaptive' }`; Gemini: `{ budgetTokens, level, includeThoughts }`. */
    thinking?: AnthropicLLMConfig['thinking'] | GeminiLLMConfig['thinking'];
  };

// OpenAI's reasoning models keep their reasoning across turns only through the Responses API.
const responsesModels = /^(o\d|gpt-5|codex)/;

/**
 * The provider a model name asks for: an explicit prefix (`anthropic/`, `gemini/` or `google/`,
 * `openai-responses/`, `openai/`), else the family (`claude-…` → anthropic, `gemini-…` → gemini);
 * OpenAI reasoning models (`o1`, `o3`, `o4-mini`, `gpt-5…`, `codex…`, with or without `openai/`) use
 * the Responses API; everything else is Chat Completions, which OpenAI-compatible servers speak.
 */
export function providerForModel(model: string): ProviderName {
  const slash = model.indexOf('/');
  const prefix = slash === -1 ? '' : model.slice(0, slash).toLowerCase();
  const name = (slash === -1 ? model : model.slice(slash + 1)).toLowerCase();
  if (prefix === 'anthropic' || (prefix === '' && name.startsWith('claude'))) return 'anthropic';
  if (prefix === 'gemini' || prefix === 'google' || (prefix === '' && name.startsWith('gemini'))) return 'gemini';
  if (prefix === 'openai-responses') return 'openai-responses';
  if ((prefix === 'openai' || prefix === '') && responsesModels.test(name)) return 'openai-responses';
  return 'openai';
}

function withoutThinking<T extends { thinking?: unknown }>(options: T): Omit<T, 'thinking'> {
  const { thinking: _thinking, ...rest } = options;
  return rest;
}

/**
 * An LLM for the model and provider in `options` (see `providerForModel`). Each provider's SDK is
 * imported on the first call, so creating an LLM costs nothing until it is used.
 */
export function createLLM(options: CreateLLMOptions): LLM {
  return describeLLM(createProviderLLM(options), options);
}

function createProviderLLM(options: CreateLLMOptions): LLM {
  const provider = options.provider ?? providerForModel(options.model);
  const thinking = options.thinking;
  switch (provider) {
    case 'anthropic':
      return createAnthropicLLM({
        ...withoutThinking(options),
        ...(thinking &&
          ('budgetTokens' in thinking || 'type' in thinking) && {
            thinking: thinking as AnthropicLLMConfig['thinking'],
          }),
      });
    case 'gemini':
      return createGeminiLLM({
        ...withoutThinking(options),
        ...(thinking && !('type' in thinking) && { thinking: thinking as GeminiLLMConfig['thinking'] }),
      });
    case 'openai-responses':
      return createOpenAIResponsesLLM(withoutThinking(options));
    default:
      return createOpenAILLM(withoutThinking(options));
  }
}
