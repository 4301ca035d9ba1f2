import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** No answer within the configured timeout, after the client's retries. */
export class LLMTimeoutError extends LLMError {
  declare readonly code: 'llm_timeout';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_timeout', message, details);
  }
}
