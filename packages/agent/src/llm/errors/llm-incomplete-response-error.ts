import { LLMError, type LLMErrorDetails } from './llm-error.js';

/**
 * The provider kept pausing one answer (Anthropic's `stop_reason: "pause_turn"`) past the number of
 * continuations the client makes, so the answer is still unfinished.
 */
export class LLMIncompleteResponseError extends LLMError {
  declare readonly code: 'llm_incomplete_response';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_incomplete_response', message, details);
  }
}
