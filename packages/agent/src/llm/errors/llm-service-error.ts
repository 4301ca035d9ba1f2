import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The provider failed (5xx) or could not be reached, after the client's retries. */
export class LLMServiceError extends LLMError {
  declare readonly code: 'llm_service';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_service', message, details);
  }
}
