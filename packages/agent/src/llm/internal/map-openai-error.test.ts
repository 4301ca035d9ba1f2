import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import { LLMAbortedError } from '../errors/llm-aborted-error.js';
import { LLMAuthenticationError } from '../errors/llm-authentication-error.js';
import { LLMBadRequestError } from '../errors/llm-bad-request-error.js';
import { LLMContextWindowExceededError } from '../errors/llm-context-window-exceeded-error.js';
import { LLMRateLimitError } from '../errors/llm-rate-limit-error.js';
import { LLMServiceError } from '../errors/llm-service-error.js';
import { LLMTimeoutError } from '../errors/llm-timeout-error.js';
import { isContextWindowMessage, mapOpenAIError } from './map-openai-error.js';

const context = { model: 'm', baseURL: 'http://127.0.0.1:1/v1' };

function apiError(status: number, message: string, code?: string): APIError {
  return APIError.generate(status, { error: { message, code } }, undefined, new Headers());
}

describe('isContextWindowMessage', () => {
  it.each([
    "This model's maximum context length is 8192 tokens",
    'prompt is too long: 210000 tokens > 200000 maximum',
    'The input token count exceeds the context window',
    'Input is too long for requested model.',
    'too many tokens in the request',
  ])('recognises %j', (message) => {
    expect(isContextWindowMessage(undefined, message)).toBe(true);
  });

  it('recognises the OpenAI code and rejects unrelated messages', () => {
    expect(isContextWindowMessage('context_length_exceeded', 'whatever')).toBe(true);
    expect(isContextWindowMessage(undefined, "Invalid value for 'temperature'")).toBe(false);
  });
});

describe('mapOpenAIError', () => {
  it.each([
    [429, LLMRateLimitError],
    [401, LLMAuthenticationError],
    [403, LLMAuthenticationError],
    [400, LLMBadRequestError],
    [404, LLMBadRequestError],
    [422, LLMBadRequestError],
    [408, LLMTimeoutError],
    [500, LLMServiceError],
    [503, LLMServiceError],
  ])('maps HTTP %i to its typed error with status, provider message and cause', (status, type) => {
    const cause = apiError(status, 'provider words', 'some_code');
    const error = mapOpenAIError(cause, context);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({
      statusCode: status,
      providerMessage: 'provider words',
      providerCode: 'some_code',
      cause,
    });
    expect(error.message).toContain("model 'm' at http://127.0.0.1:1/v1");
  });

  it('prefers the context-window reading over the status for a 413 or 500 with such a message', () => {
    expect(mapOpenAIError(apiError(413, 'Input is too long'), context)).toBeInstanceOf(LLMContextWindowExceededError);
    expect(mapOpenAIError(apiError(500, 'prompt is too long'), context)).toBeInstanceOf(LLMContextWindowExceededError);
  });

  it('maps client-side aborts, timeouts and unknown failures', () => {
    expect(mapOpenAIError(new APIUserAbortError(), context)).toBeInstanceOf(LLMAbortedError);
    expect(mapOpenAIError(new APIConnectionTimeoutError(), context)).toBeInstanceOf(LLMTimeoutError);
    const unknown = mapOpenAIError(new TypeError('boom'), context);
    expect(unknown).toBeInstanceOf(LLMServiceError);
    expect(unknown.message).toContain('boom');
  });
});
