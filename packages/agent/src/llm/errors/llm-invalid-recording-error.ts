import { LLMError, type LLMErrorDetails } from './llm-error.js';

/** An event given to `recordingFromEvents` lacks a field a recorded response needs. */
export class LLMInvalidRecordingError extends LLMError {
  declare readonly code: 'llm_invalid_recording';

  constructor(message: string, details: LLMErrorDetails = {}) {
    super('llm_invalid_recording', message, details);
  }
}
