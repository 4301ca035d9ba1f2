import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The caller aborted the request through its AbortSignal. */
export class LLMAbortedError extends LLMError {
  declare readonly code: 'llm_aborted';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_aborted', message, details);
  }

  /** True for this error, even one created by another copy of @x/agent. */
  static override isInstance(value: unknown): value is LLMAbortedError {
    return LLMError.isInstance(value) && value.code === 'llm_aborted';
  }
}
