import type { LLMResponse } from '../llm.js';
import { LLMError, type LLMErrorDetails } from './llm-error.js';

/**
 * The model tried to call a tool and the provider could not turn the attempt into a call (Gemini's
 * `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`). `response` holds the
 * answer as a response whose one tool call carries the provider's words as arguments that are not
 * JSON: the agent's step records it as any other invalid tool call, so the model is told and retries.
 */
export class LLMMalformedToolCallError extends LLMError {
  declare readonly code: 'llm_malformed_tool_call';
  readonly response: LLMResponse;

  constructor(message: string, response: LLMResponse, details: LLMErrorDetails = {}) {
    super('llm_malformed_tool_call', message, details);
    this.response = response;
  }
}
