import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The provider still answered 429 after the client's retries were used up. */
export class LLMRateLimitError extends LLMError {
  declare readonly code: 'llm_rate_limit';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_rate_limit', message, details);
  }
}
