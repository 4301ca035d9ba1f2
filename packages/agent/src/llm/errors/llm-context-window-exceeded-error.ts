import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The prompt does not fit the model's context window; condensing the history is the usual remedy. */
export class LLMContextWindowExceededError extends LLMError {
  declare readonly code: 'llm_context_window_exceeded';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_context_window_exceeded', message, details);
  }
}
