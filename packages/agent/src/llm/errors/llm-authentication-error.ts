import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The provider rejected the credentials (401/403), or no API key was configured. */
export class LLMAuthenticationError extends LLMError {
  declare readonly code: 'llm_authentication';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_authentication', message, details);
  }

  /** True for this error, even one created by another copy of @x/agent. */
  static override isInstance(value: unknown): value is LLMAuthenticationError {
    return LLMError.isInstance(value) && value.code === 'llm_authentication';
  }
}
