import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The provider rejected the credentials (401/403), or no API key was configured. */
export class LLMAuthenticationError extends LLMError {
  declare readonly code: 'llm_authentication';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_authentication', message, details);
  }
}
