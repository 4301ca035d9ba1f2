// What a provider's failure tells the caller, read through each vendor's own SDK against its wire server on loopback:
// Anthropic nests its error (`{type: 'error', error: {type, message}}`) and has no `code`, so the typed error keeps the
// inner message unchanged and the vendor's error type as its code; an OpenAI error without a code is known by its
// type; an answer with no JSON error body at all is still a service error naming the status; and what is not an SDK's
// HTTP error (a thrown string or null, an error with a status but no headers) is a failure in its own words.
import { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAnthropicLLM,
  createOpenAIResponsesLLM,
  LLMError,
  LLMRateLimitError,
  LLMServiceError,
} from '../src/index.js';
import { mapOpenAIError } from '../src/llm/internal/map-openai-error.js';
import { startAnthropicServer, startResponsesServer, type WireServer } from '../src/testing/index.js';
import { userMessage } from './support/provider-contract.js';

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failureOf(complete: Promise<unknown>): Promise<LLMError> {
  const error = await complete.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LLMError);
  return error as LLMError;
}

describe('an Anthropic failure', () => {
  it.each([
    ['overloaded', 529, LLMServiceError, 'overloaded_error', 'Overloaded'],
    ['rate_limit', 429, LLMRateLimitError, 'rate_limit_error', 'Number of request tokens has exceeded your rate limit'],
  ] as const)(
    '(%s) keeps the nested message unchanged and the error type as its code',
    async (kind, status, type, code, message) => {
      server = await startAnthropicServer([{ error: kind }]);
      const llm = createAnthropicLLM({
        model: 'anthropic/claude-sonnet-4-6',
        baseURL: server.baseURL,
        apiKey: 'sk-ant-test',
        maxRetries: 0,
      });
      const error = await failureOf(llm.complete({ messages: [userMessage('hi')] }));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ statusCode: status, providerCode: code, providerMessage: message });
      expect(error.message).toMatch(new RegExp(`\\(HTTP ${status}\\): ${message}$`));
    },
  );
});

describe('an OpenAI Responses failure without a code', () => {
  it('is known by its error type', async () => {
    server = await startResponsesServer([{ error: 'server_error' }]);
    const llm = createOpenAIResponsesLLM({
      model: 'openai/o4-mini',
      baseURL: server.baseURL,
      apiKey: 'sk-test',
      maxRetries: 0,
    });
    const error = await failureOf(llm.complete({ messages: [userMessage('hi')] }));
    expect(error).toBeInstanceOf(LLMServiceError);
    expect(error).toMatchObject({
      statusCode: 500,
      providerCode: 'server_error',
      providerMessage: 'The server had an error while processing your request.',
    });
  });
});

describe('a provider that cannot be reached', () => {
  it('is a service error saying so, with no status', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const llm = createOpenAIResponsesLLM({
      model: 'openai/o4-mini',
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'sk-test',
      maxRetries: 0,
    });
    const error = await failureOf(llm.complete({ messages: [userMessage('hi')] }));
    expect(error).toBeInstanceOf(LLMServiceError);
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toMatch(/^Could not reach model 'openai\/o4-mini' at http:\/\/127\.0\.0\.1:1\/v1: /);
  });
});

describe('an answer with no JSON error body', () => {
  it('is a service error with the status and the SDK words, and no code', () => {
    const cause = APIError.generate(502, undefined, 'Bad Gateway', new Headers());
    const error = mapOpenAIError(cause, { model: 'm', baseURL: 'http://127.0.0.1:1/v1' });
    expect(error).toBeInstanceOf(LLMServiceError);
    expect(error).toMatchObject({ statusCode: 502, providerMessage: cause.message, providerCode: undefined, cause });
    expect(error.message).toContain('(HTTP 502)');
  });
});

describe('what is not an HTTP error of an SDK', () => {
  const context = { model: 'm', baseURL: 'http://127.0.0.1:1/v1' };

  it.each<[string, unknown, string]>([
    ['a thrown string', 'socket hang up', 'socket hang up'],
    ['a thrown null', null, 'null'],
    [
      'an error with a status but no headers',
      Object.assign(new Error('proxy said no'), { status: 502 }),
      'proxy said no',
    ],
    ['an error with headers but no status', Object.assign(new Error('odd'), { headers: new Headers() }), 'odd'],
  ])('(%s) is a service error in its own words, with no status', (_name, thrown, words) => {
    const error = mapOpenAIError(thrown, context);
    expect(error).toBeInstanceOf(LLMServiceError);
    expect(error.statusCode).toBeUndefined();
    expect(error.message).toBe(`The request to model 'm' at ${context.baseURL} failed: ${words}`);
  });
});
