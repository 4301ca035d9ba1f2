/**
 * The HTTP answer for an LLM failure (an `LLMError` of @x/agent, told apart by `code`), on every route that
 * calls the model (ask_agent, generate_title, condense, ...): the provider's trouble is a gateway error,
 * not the server's, and the body names the kind of failure without internal details.
 */
const LLM_STATUS: Record<string, { status: number; detail: string }> = {
  llm_rate_limit: { status: 429, detail: 'The LLM provider is rate limiting requests; try again later' },
  llm_timeout: { status: 504, detail: 'The LLM provider did not answer in time' },
  llm_authentication: { status: 502, detail: 'The LLM provider refused the credentials of this conversation' },
  llm_bad_request: { status: 502, detail: 'The LLM provider refused the request' },
  llm_context_window_exceeded: { status: 400, detail: "The conversation does not fit the model's context window" },
  llm_service: { status: 502, detail: 'The LLM provider failed to answer' },
  llm_aborted: { status: 503, detail: 'The LLM call was aborted' },
  llm_script_exhausted: { status: 502, detail: 'The scripted model has no reply left' },
  llm_invalid_recording: { status: 502, detail: 'The recorded model answer is invalid' },
  llm_incomplete_response: { status: 502, detail: 'The LLM provider left its answer unfinished' },
  llm_malformed_tool_call: { status: 502, detail: 'The LLM provider could not read the tool call the model made' },
};

/** `{status, detail}` for an LLM error code, undefined for any other code. */
export function llmErrorStatus(code: string): { status: number; detail: string } | undefined {
  return Object.hasOwn(LLM_STATUS, code) ? LLM_STATUS[code] : undefined;
}
