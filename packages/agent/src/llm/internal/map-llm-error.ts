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
  'exceeds the maximum number of tokens',
  'input token count',
];

const authenticationPatterns = ['api key not valid', 'api_key_invalid', 'invalid x-api-key', 'invalid api key'];

/** True when a provider's error code or message says the prompt did not fit the model. */
export function isContextWindowMessage(code: string | undefined, message: string | undefined): boolean {
  if (code === 'context_length_exceeded') return true;
  const text = (message ?? '').toLowerCase();
  return contextWindowPatterns.some((pattern) => text.includes(pattern));
}

/** What an SDK's error says, in SDK-independent terms. */
export type ProviderFailure =
  | { kind: 'aborted' | 'timeout' | 'unknown'; error: unknown; message: string }
  | { kind: 'http'; error: unknown; status: number | undefined; message: string; code?: string };

/**
 * Maps a provider failure (after the SDK's own retries) to a typed LLMError, the same way for every
 * provider. The message names the model and the endpoint, and keeps the provider's words.
 */
export function toLLMError(failure: ProviderFailure, context: { model: string; baseURL: string }): LLMError {
  if (LLMError.isInstance(failure.error)) return failure.error;
  const where = `model '${context.model}' at ${context.baseURL}`;
  if (failure.kind === 'aborted') {
    return new LLMAbortedError(`The request to ${where} was aborted`, { cause: failure.error });
  }
  if (failure.kind === 'timeout') {
    return new LLMTimeoutError(`The request to ${where} timed out`, { cause: failure.error });
  }
  if (failure.kind !== 'http') {
    return new LLMServiceError(`The request to ${where} failed: ${failure.message}`, { cause: failure.error });
  }
  const { status, message: providerMessage } = failure;
  const details: LLMErrorDetails = {
    providerMessage,
    cause: failure.error,
    ...(status !== undefined && { statusCode: status }),
    ...(failure.code !== undefined && { providerCode: failure.code }),
  };
  const suffix = `${status === undefined ? '' : ` (HTTP ${status})`}: ${providerMessage}`;
  if (status === undefined) {
    return new LLMServiceError(`Could not reach ${where}${suffix}`, details);
  }
  if (status === 429) {
    return new LLMRateLimitError(`Rate limited by ${where} after all retries${suffix}`, details);
  }
  const lower = `${failure.code ?? ''} ${providerMessage}`.toLowerCase();
  if (status === 401 || status === 403 || authenticationPatterns.some((pattern) => lower.includes(pattern))) {
    return new LLMAuthenticationError(`Authentication failed for ${where}${suffix}`, details);
  }
  if (isContextWindowMessage(details.providerCode, providerMessage)) {
    return new LLMContextWindowExceededError(`The prompt exceeds the context window of ${where}${suffix}`, details);
  }
  if (status === 408 || status === 504) {
    return new LLMTimeoutError(`The request to ${where} timed out${suffix}`, details);
  }
  if (status >= 500) {
    return new LLMServiceError(`The provider failed for ${where} after all retries${suffix}`, details);
  }
  return new LLMBadRequestError(`The request was rejected by ${where}${suffix}`, details);
}

/**
 * Reads a Stainless-generated SDK's error (the `openai` and `@anthropic-ai/sdk` clients share the
 * shape): `status`, a JSON `error` body with `message` / `code` / `type` (Anthropic nests it as
 * `{ type: 'error', error: { type, message } }`), and the abort / timeout classes by name.
 */
export function stainlessFailure(error: unknown): ProviderFailure {
  const name = error instanceof Error ? error.constructor.name : '';
  const text = error instanceof Error ? error.message : String(error);
  if (name === 'APIUserAbortError') return { kind: 'aborted', error, message: text };
  if (name === 'APIConnectionTimeoutError') return { kind: 'timeout', error, message: text };
  if (typeof error !== 'object' || error === null || !('status' in error) || !('headers' in error)) {
    return { kind: 'unknown', error, message: text };
  }
  const record = error as { status?: unknown; error?: unknown; code?: unknown };
  let body = record.error as Record<string, unknown> | undefined;
  if (body && typeof body.error === 'object' && body.error !== null) body = body.error as Record<string, unknown>;
  const message = typeof body?.message === 'string' ? body.message : text;
  const code =
    typeof record.code === 'string'
      ? record.code
      : typeof body?.code === 'string'
        ? body.code
        : typeof body?.type === 'string'
          ? body.type
          : undefined;
  return {
    kind: 'http',
    error,
    status: typeof record.status === 'number' ? record.status : undefined,
    message,
    ...(code !== undefined && { code }),
  };
}
