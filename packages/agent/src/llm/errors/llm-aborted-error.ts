import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The caller aborted the request through its AbortSignal. */
export class LLMAbortedError extends LLMError {
  declare readonly code: 'llm_aborted';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_aborted', message, details);
  }
}
