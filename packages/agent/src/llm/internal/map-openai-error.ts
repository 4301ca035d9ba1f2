// The error classes come from their own light module, so mapping errors does not load the client.
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai/error';
import { LLMAbortedError } from '../errors/llm-aborted-error.js';
import { LLMAuthenticationError } from '../errors/llm-authentication-error.js';
import { LLMBadRequestError } from '../errors/llm-bad-request-error.js';
import { LLMContextWindowExceededError } from '../errors/llm-context-window-exceeded-error.js';
import { LLMError, type LLMErrorDetails } from '../errors/llm-error.js';
import { LLMRateLimitError } from '../errors/llm-rate-limit-error.js';
import { LLMServiceError } from '../errors/llm-service-error.js';
import { LLMTimeoutError } from '../errors/llm-timeout-error.js';

// OpenAI sends a code; other providers (Anthropic, Gemini, Bedrock, vLLM, llama.cpp...) only words.
const contextWindowPatterns = [
  'maximum context length',
  'context window',
  'prompt is too long',
  'too many tokens',
  'input is too long',
];

/** True when a provider's error code or message says the prompt did not fit the model. */
export function isContextWindowMessage(code: string | undefined, message: string | undefined): boolean {
  if (code === 'context_length_exceeded') return true;
  const text = (message ?? '').toLowerCase();
  return contextWindowPatterns.some((pattern) => text.includes(pattern));
}

function providerMessageOf(error: APIError): string {
  const body = error.error;
  if (typeof body === 'object' && body !== null) {
    const message = (body as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  return error.message;
}

/**
 * Maps what the openai client throws (after its own retries) to a typed LLMError. The message names the
 * model and the endpoint, and keeps the provider's words.
 */
export function mapOpenAIError(error: unknown, context: { model: string; baseURL: string }): LLMError {
  if (LLMError.isInstance(error)) return error;
  const where = `model '${context.model}' at ${context.baseURL}`;
  if (error instanceof APIUserAbortError) {
    return new LLMAbortedError(`The request to ${where} was aborted`, { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new LLMTimeoutError(`The request to ${where} timed out`, { cause: error });
  }
  if (!(error instanceof APIError)) {
    const text = error instanceof Error ? error.message : String(error);
    return new LLMServiceError(`The request to ${where} failed: ${text}`, { cause: error });
  }
  const providerMessage = providerMessageOf(error);
  const details: LLMErrorDetails = {
    providerMessage,
    cause: error,
    ...(error.status !== undefined && { statusCode: error.status }),
    ...(typeof error.code === 'string' && { providerCode: error.code }),
  };
  const status = error.status;
  const suffix = `${status === undefined ? '' : ` (HTTP ${status})`}: ${providerMessage}`;
  if (status === undefined) {
    return new LLMServiceError(`Could not reach ${where}${suffix}`, details);
  }
  if (status === 429) {
    return new LLMRateLimitError(`Rate limited by ${where} after all retries${suffix}`, details);
  }
  if (status === 401 || status === 403) {
    return new LLMAuthenticationError(`Authentication failed for ${where}${suffix}`, details);
  }
  if (isContextWindowMessage(details.providerCode, providerMessage)) {
    return new LLMContextWindowExceededError(`The prompt exceeds the context window of ${where}${suffix}`, details);
  }
  if (status === 408) {
    return new LLMTimeoutError(`The request to ${where} timed out${suffix}`, details);
  }
  if (status >= 500) {
    return new LLMServiceError(`The provider failed for ${where} after all retries${suffix}`, details);
  }
  return new LLMBadRequestError(`The request was rejected by ${where}${suffix}`, details);
}
