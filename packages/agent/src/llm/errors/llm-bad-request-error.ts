import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** The provider rejected the request itself (400, 404, 422, ...); retrying the same request will not help. */
export class LLMBadRequestError extends LLMError {
  declare readonly code: 'llm_bad_request';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_bad_request', message, details);
  }
}
