import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedLLMServer, startScriptedLLMServer } from '../testing/scripted-llm-server.js';
import { resolveLLMFromEnv } from './resolve-llm-from-env.js';

let server: ScriptedLLMServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('resolveLLMFromEnv', () => {
  it('returns undefined without OPENAI_API_KEY, so callers fall back to the offline model', () => {
    expect(resolveLLMFromEnv({ X_MODEL: 'gpt-4o' })).toBeUndefined();
    expect(resolveLLMFromEnv({ OPENAI_API_KEY: '' })).toBeUndefined();
  });

  it('picks the model from the override, then X_MODEL, then gpt-4o-mini', () => {
    expect(resolveLLMFromEnv({ OPENAI_API_KEY: 'k' })?.model).toBe('gpt-4o-mini');
    expect(resolveLLMFromEnv({ OPENAI_API_KEY: 'k', X_MODEL: 'env-model' })?.model).toBe('env-model');
    expect(resolveLLMFromEnv({ OPENAI_API_KEY: 'k', X_MODEL: 'env-model' }, { model: 'chosen' })?.model).toBe('chosen');
  });

  it('uses OPENAI_BASE_URL and the key from the given environment', async () => {
    server = await startScriptedLLMServer([{ content: 'hi' }]);
    const llm = resolveLLMFromEnv({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: server.baseURL, X_MODEL: 'local' });
    const response = await llm?.complete({ messages: [{ role: 'user', content: 'hello' }] });
    expect(response?.id).toBe('chatcmpl-1');
    expect(server.requests[0]).toMatchObject({ model: 'local' });
    expect(server.requestHeaders[0]?.authorization).toBe('Bearer sk-env');
  });

  it('lets the baseURL override win over OPENAI_BASE_URL', async () => {
    server = await startScriptedLLMServer([{ content: 'hi' }]);
    const llm = resolveLLMFromEnv(
      { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      { baseURL: server.baseURL },
    );
    await llm?.complete({ messages: [{ role: 'user', content: 'hello' }] });
    expect(server.requests).toHaveLength(1);
  });
});
