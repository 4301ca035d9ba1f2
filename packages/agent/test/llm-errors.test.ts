import { afterEach, describe, expect, it } from 'vitest';
import { LLMAbortedError } from '../src/llm/errors/llm-aborted-error.js';
import { LLMAuthenticationError } from '../src/llm/errors/llm-authentication-error.js';
import { LLMBadRequestError } from '../src/llm/errors/llm-bad-request-error.js';
import { LLMContextWindowExceededError } from '../src/llm/errors/llm-context-window-exceeded-error.js';
import { LLMError } from '../src/llm/errors/llm-error.js';
import { LLMRateLimitError } from '../src/llm/errors/llm-rate-limit-error.js';
import { LLMServiceError } from '../src/llm/errors/llm-service-error.js';
import { LLMTimeoutError } from '../src/llm/errors/llm-timeout-error.js';
import { createOpenAILLM, type LLMConfig } from '../src/llm/openai-llm.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../src/testing/index.js';

const userTurn = [{ role: 'user' as const, content: 'hi' }];
// retry-after-ms keeps the openai client's backoff short.
const fast = { 'retry-after-ms': '5' };
let server: ScriptedLLMServer | undefined;

async function llmFor(script: ScriptedReply[], config: Partial<LLMConfig> = {}) {
  server = await startScriptedLLMServer(script);
  return createOpenAILLM({ model: 'm', baseURL: server.baseURL, apiKey: 'k', ...config });
}

async function failure(promise: Promise<unknown>): Promise<LLMError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(LLMError.isInstance(error)).toBe(true);
  return error as LLMError;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createOpenAILLM errors and retries', () => {
  it("retries a 429 through the openai client's own retry logic, then succeeds", async () => {
    const llm = await llmFor([
      { error: { status: 429, message: 'Rate limit reached' }, headers: fast },
      { content: 'ok' },
    ]);
    const response = await llm.complete({ messages: userTurn });
    expect(response.id).toBe('chatcmpl-2');
    expect(server?.requests).toHaveLength(2);
  });

  it('raises LLMRateLimitError once retries are exhausted', async () => {
    const limited: ScriptedReply = {
      error: { status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded' },
      headers: fast,
    };
    const llm = await llmFor([limited, limited, limited], { maxRetries: 2 });
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMRateLimitError);
    expect(error).toMatchObject({
      statusCode: 429,
      providerMessage: 'Rate limit reached',
      providerCode: 'rate_limit_exceeded',
    });
    expect(server?.requests).toHaveLength(3);
  });

  it('raises LLMServiceError after 500s exhaust the retries, with the status, message and cause', async () => {
    const broken: ScriptedReply = { error: { status: 500, message: 'upstream exploded' }, headers: fast };
    const llm = await llmFor([broken, broken, broken, broken, broken]);
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMServiceError);
    expect(LLMServiceError.isInstance(error)).toBe(true);
    expect(LLMRateLimitError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ code: 'llm_service', statusCode: 500, providerMessage: 'upstream exploded' });
    expect(error.message).toContain('upstream exploded');
    expect(error.cause).toBeInstanceOf(Error);
    // One attempt plus the default four retries.
    expect(server?.requests).toHaveLength(5);
  });

  it('recognises OpenAI context_length_exceeded as LLMContextWindowExceededError, without retrying', async () => {
    const llm = await llmFor([{ contextOverflow: true }]);
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMContextWindowExceededError);
    expect(error).toMatchObject({ statusCode: 400, providerCode: 'context_length_exceeded' });
    expect(error.providerMessage).toContain('maximum context length');
    expect(server?.requests).toHaveLength(1);
  });

  it('recognises another provider’s "prompt is too long" wording as a context-window error', async () => {
    const llm = await llmFor([
      { error: { status: 400, message: 'prompt is too long: 210000 tokens > 200000 maximum' } },
    ]);
    expect(await failure(llm.complete({ messages: userTurn }))).toBeInstanceOf(LLMContextWindowExceededError);
  });

  it('maps 401 to LLMAuthenticationError', async () => {
    const llm = await llmFor([
      { error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    ]);
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMAuthenticationError);
    expect(error).toMatchObject({ statusCode: 401, providerCode: 'invalid_api_key' });
  });

  it('maps other 4xx answers to LLMBadRequestError', async () => {
    const llm = await llmFor([{ error: { status: 400, message: "Invalid value for 'temperature'" } }]);
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMBadRequestError);
    expect(error.message).toContain("Invalid value for 'temperature'");
  });

  it('raises LLMTimeoutError when the server answers too late', async () => {
    const llm = await llmFor([{ content: 'late', delayMs: 2000 }], { timeoutMs: 100, maxRetries: 0 });
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMTimeoutError);
    expect(error.statusCode).toBeUndefined();
  });

  it('raises LLMAbortedError when the caller aborts', async () => {
    const llm = await llmFor([{ content: 'late', delayMs: 2000 }]);
    const controller = new AbortController();
    const pending = llm.complete({ messages: userTurn, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await failure(pending)).toBeInstanceOf(LLMAbortedError);
  });

  it('raises LLMServiceError when nothing listens at the base URL', async () => {
    server = await startScriptedLLMServer();
    const baseURL = server.baseURL;
    await server.close();
    server = undefined;
    const llm = createOpenAILLM({ model: 'm', baseURL, apiKey: 'k', maxRetries: 0 });
    const error = await failure(llm.complete({ messages: userTurn }));
    expect(error).toBeInstanceOf(LLMServiceError);
    expect(error.message).toContain(baseURL);
  });

  it('refuses to start without any API key for the public endpoint', () => {
    const previous = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => createOpenAILLM({ model: 'gpt-4o-mini' })).toThrow(LLMAuthenticationError);
    } finally {
      if (previous !== undefined) process.env.OPENAI_API_KEY = previous;
    }
  });
});
