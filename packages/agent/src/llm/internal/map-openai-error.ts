import type { LLMError } from '../errors/llm-error.js';
import { stainlessFailure, toLLMError } from './map-llm-error.js';

export { isContextWindowMessage } from './map-llm-error.js';

/**
 * Maps what the openai client throws (after its own retries) to a typed LLMError. The message names the
 * model and the endpoint, and keeps the provider's words.
 */
export function mapOpenAIError(error: unknown, context: { model: string; baseURL: string }): LLMError {
  return toLLMError(stainlessFailure(error), context);
}
