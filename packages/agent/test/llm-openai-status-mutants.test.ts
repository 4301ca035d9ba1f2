import { afterEach, describe, expect, it } from 'vitest';
import { LLMAuthenticationError } from '../src/llm/errors/llm-authentication-error.js';
import { LLMBadRequestError } from '../src/llm/errors/llm-bad-request-error.js';
import { LLMContextWindowExceededError } from '../src/llm/errors/llm-context-window-exceeded-error.js';
import { LLMError } from '../src/llm/errors/llm-error.js';
import { LLMRateLimitError } from '../src/llm/errors/llm-rate-limit-error.js';
import { LLMServiceError } from '../src/llm/errors/llm-service-error.js';
import { LLMTimeoutError } from '../src/llm/errors/llm-timeout-error.js';
import { createOpenAILLM } from '../src/llm/openai-llm.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';

// Every HTTP status OpenAI answers with, through the openai client (its own retry policy) and our mapping.
const userTurn = [{ role: 'user' as const, content: 'hi' }];
// retry-after-ms keeps the openai client's backoff short.
const fast = { 'retry-after-ms': '1' };
let server: ScriptedLLMServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failWith(reply: ScriptedReply, options: { stream?: boolean } = {}): Promise<LLMError> {
  server = await startScriptedLLMServer([reply, reply]);
  const llm = createOpenAILLM({ model: 'gpt-x', baseURL: server.baseURL, apiKey: 'k', maxRetries: 1, ...options });
  const error = await llm.complete({ messages: userTurn }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(LLMError.isInstance(error)).toBe(true);
  return error as LLMError;
}

describe('createOpenAILLM maps each OpenAI status, retrying only what the openai client retries', () => {
  it.each([
    [400, 'invalid_request_error', LLMBadRequestError, 1],
    [401, 'invalid_api_key', LLMAuthenticationError, 1],
    [403, 'unsupported_country_region_territory', LLMAuthenticationError, 1],
    [404, 'model_not_found', LLMBadRequestError, 1],
    [422, 'unprocessable_entity', LLMBadRequestError, 1],
    [408, 'timeout', LLMTimeoutError, 2],
    [429, 'rate_limit_exceeded', LLMRateLimitError, 2],
    [500, 'server_error', LLMServiceError, 2],
    [502, 'bad_gateway', LLMServiceError, 2],
    [503, 'overloaded', LLMServiceError, 2],
    [504, 'gateway_timeout', LLMTimeoutError, 2],
  ])('HTTP %i (%s) becomes %O after %i request(s)', async (status, code, type, attempts) => {
    for (const stream of [false, true]) {
      const error = await failWith(
        { error: { status, code, message: `status ${status} words` }, headers: fast },
        { stream },
      );
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({
        statusCode: status,
        providerCode: code,
        providerMessage: `status ${status} words`,
      });
      expect(error.message).toContain("model 'gpt-x' at http://127.0.0.1:");
      expect(error.message).toContain(`(HTTP ${status}): status ${status} words`);
      expect(server?.requests).toHaveLength(attempts);
      await server?.close();
      server = undefined;
    }
  });

  it('retries a 409 conflict as the openai client does, and reports its status', async () => {
    const error = await failWith({ error: { status: 409, message: 'conflict' }, headers: fast });
    expect(error.statusCode).toBe(409);
    expect(server?.requests).toHaveLength(2);
  });

  it('maps a context overflow once, without retrying it, as LLMContextWindowExceededError', async () => {
    const error = await failWith({ contextOverflow: true });
    expect(error).toBeInstanceOf(LLMContextWindowExceededError);
    expect(error).toMatchObject({ statusCode: 400, providerCode: 'context_length_exceeded' });
    expect(server?.requests).toHaveLength(1);
  });

  it('reads a 413 whose words say the prompt is too long as a context-window error', async () => {
    const error = await failWith({ error: { status: 413, message: 'Request too large: input is too long' } });
    expect(error).toBeInstanceOf(LLMContextWindowExceededError);
    expect(server?.requests).toHaveLength(1);
  });

  it('keeps a rate limit a rate limit even when its words mention tokens', async () => {
    const message = 'Rate limit reached: too many tokens per minute';
    const error = await failWith({ error: { status: 429, message, code: 'rate_limit_exceeded' }, headers: fast });
    expect(error).toBeInstanceOf(LLMRateLimitError);
  });
});
