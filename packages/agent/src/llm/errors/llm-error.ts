import { AgentError } from '../../errors.js';

export type LLMErrorCode =
  | 'llm_context_window_exceeded'
  | 'llm_rate_limit'
  | 'llm_authentication'
  | 'llm_bad_request'
  | 'llm_timeout'
  | 'llm_service'
  | 'llm_aborted'
  | 'llm_script_exhausted'
  | 'llm_invalid_recording'
  | 'llm_incomplete_response'
  | 'llm_malformed_tool_call';

export interface LLMErrorDetails {
  /** HTTP status of the provider's answer; absent when there was none (timeout, connection error). */
  statusCode?: number;
  /** The provider's own error message, unchanged. */
  providerMessage?: string;
  /** The provider's error code (e.g. OpenAI's `context_length_exceeded`). */
  providerCode?: string;
  cause?: unknown;
}

/** Base of every error raised by an LLM call. */
export class LLMError extends AgentError {
  declare readonly code: LLMErrorCode;
  readonly statusCode: number | undefined;
  readonly providerMessage: string | undefined;
  readonly providerCode: string | undefined;

  constructor(code: LLMErrorCode, message: string, details: LLMErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    this.statusCode = details.statusCode;
    this.providerMessage = details.providerMessage;
    this.providerCode = details.providerCode;
  }
}
