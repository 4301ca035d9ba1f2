import { describe, expect, it } from 'vitest';
import { resolveLLMFromEnv } from '../llm/resolve-llm-from-env.js';
import { createLLM, providerForModel } from './create-llm.js';

describe('providerForModel', () => {
  it.each([
    ['anthropic/claude-sonnet-4-6', 'anthropic'],
    ['claude-haiku-4-5', 'anthropic'],
    ['gemini/gemini-2.5-flash', 'gemini'],
    ['google/gemini-2.5-pro', 'gemini'],
    ['gemini-2.5-flash', 'gemini'],
    ['openai/o4-mini', 'openai-responses'],
    ['gpt-5-mini', 'openai-responses'],
    ['openai-responses/gpt-4.1', 'openai-responses'],
    ['openai/gpt-4o', 'openai'],
    ['gpt-4o-mini', 'openai'],
    ['qwen3-coder', 'openai'],
    ['hosted_vllm/claude-like', 'openai'],
  ])('%s → %s', (model, provider) => {
    expect(providerForModel(model)).toBe(provider);
  });
});

describe('createLLM', () => {
  it('builds the provider the model names, or the explicit one, without loading its SDK', () => {
    expect(createLLM({ model: 'anthropic/claude-sonnet-4-6', apiKey: 'k' }).provider).toBe('anthropic');
    expect(createLLM({ model: 'gemini/gemini-2.5-flash', apiKey: 'k' }).provider).toBe('gemini');
    expect(createLLM({ model: 'o3', apiKey: 'k' }).provider).toBe('openai-responses');
    expect(createLLM({ model: 'my-model', provider: 'anthropic', apiKey: 'k' }).provider).toBe('anthropic');
    expect(createLLM({ model: 'gpt-4o', apiKey: 'k', usageId: 'agent' })).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      usageId: 'agent',
    });
  });
});

describe('resolveLLMFromEnv across providers', () => {
  it('takes the key of the provider the model names, and none of another provider', () => {
    expect(resolveLLMFromEnv({ ANTHROPIC_API_KEY: 'a', X_MODEL: 'anthropic/claude-haiku-4-5' })?.provider).toBe(
      'anthropic',
    );
    expect(resolveLLMFromEnv({ OPENAI_API_KEY: 'o', X_MODEL: 'anthropic/claude-haiku-4-5' })).toBeUndefined();
    expect(resolveLLMFromEnv({ GOOGLE_API_KEY: 'g' }, { model: 'gemini-2.5-pro' })?.provider).toBe('gemini');
  });

  it('uses the first provider with a key and its default model when no model is named', () => {
    expect(resolveLLMFromEnv({ GEMINI_API_KEY: 'g' })).toMatchObject({
      provider: 'gemini',
      model: 'gemini/gemini-2.5-flash',
    });
    expect(resolveLLMFromEnv({ ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' })?.provider).toBe('anthropic');
    expect(resolveLLMFromEnv({ X_PROVIDER: 'openai-responses', OPENAI_API_KEY: 'o' })).toMatchObject({
      provider: 'openai-responses',
      model: 'gpt-5-mini',
    });
  });
});
