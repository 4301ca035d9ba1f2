import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The offline model was asked for more turns than its script or recording holds. */
export class LLMScriptExhaustedError extends LLMError {
  declare readonly code: 'llm_script_exhausted';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_script_exhausted', message, details);
  }
}
