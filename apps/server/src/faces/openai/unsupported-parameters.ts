import { clientText } from '../../internal/client-text.js';
import type { ChatCompletionRequest } from './chat-request.js';
import { invalidRequest } from './openai-error.js';
import {
  forcesACall,
  SERIAL_TOOL_CALLS_REFUSAL,
  TOKEN_LIMIT_REFUSAL,
  toolsRefusal,
  unsupportedParameter,
  unsupportedValue,
} from './parameter-refusals.js';

/**
 * Refuses what the gateway cannot honour, the way OpenAI refuses what a model does not support (400
 * `invalid_request_error`, code `unsupported_value` or `unsupported_parameter`, the field in `param`). Each of these
 * changes the shape or the meaning of the answer the client expects, or promises something, so accepting and ignoring
 * it would hand the client something else than it asked for: several choices, token log probabilities, JSON that obeys
 * a schema, audio, its own tools offered to the model (the agent runs its own and never returns `tool_calls`), an
 * answer within a token limit, one tool call at a time (`parallel_tool_calls: false`), a completion stored for retrieval (and `metadata`, which OpenAI takes only with
 * `store: true`), a web search with its citations, or tokens banned or favoured by `logit_bias`. The values were
 * type-checked by the request schema; options that only tune sampling (`temperature`, `seed`, ...) or label the
 * request (`user`, `safety_identifier`, ...) are accepted and ignored.
 */
export function refuseUnsupportedParameters(request: ChatCompletionRequest): void {
  if (typeof request.n === 'number' && request.n !== 1) {
    throw unsupportedValue(
      'n',
      `'n' does not support ${request.n}: an agent gives one answer. Supported values are: 1.`,
    );
  }
  if (request.logprobs === true) {
    throw unsupportedParameter('logprobs', 'is not supported: the answer is an agent run, not one sampling');
  }
  if (typeof request.top_logprobs === 'number' && request.top_logprobs > 0) {
    throw unsupportedParameter('top_logprobs', 'is not supported: the answer is an agent run, not one sampling');
  }
  const format = request.response_format?.type;
  if (format !== undefined && format !== 'text') {
    throw unsupportedValue(
      'response_format',
      `'response_format.type' does not support '${clientText(format)}': the agent's final answer is free text. Supported values are: 'text'.`,
    );
  }
  if (request.modalities?.some((modality) => modality !== 'text') === true) {
    throw unsupportedValue('modalities', "'modalities' supports only 'text': the agent answers in text.");
  }
  if (request.audio !== undefined && request.audio !== null) {
    throw unsupportedParameter('audio', 'is not supported: the agent answers in text');
  }
  refuseClientTools(request);
  if (request.parallel_tool_calls === false) throw unsupportedValue('parallel_tool_calls', SERIAL_TOOL_CALLS_REFUSAL);
  for (const param of ['max_tokens', 'max_completion_tokens'] as const) {
    if (typeof request[param] === 'number') throw unsupportedParameter(param, TOKEN_LIMIT_REFUSAL);
  }
  if (request.store === true) {
    throw unsupportedValue(
      'store',
      "'store' does not support true: the gateway keeps no chat completions to retrieve (the Responses API keeps its responses; the conversation keeps every turn). Supported values are: false.",
    );
  }
  // OpenAI's own rule: metadata labels a stored completion, so without `store: true` it is a 400 (and `store: true`
  // is refused above), never a label silently dropped.
  if (request.metadata !== undefined && request.metadata !== null) {
    throw invalidRequest(
      "The 'metadata' parameter is only allowed when 'store' is enabled: it labels a stored completion, and the gateway stores none (the Responses API keeps its responses with their metadata)",
      'metadata',
      'invalid_value',
    );
  }
  if (request.web_search_options !== undefined && request.web_search_options !== null) {
    throw unsupportedParameter(
      'web_search_options',
      "is not supported: the agent searches the web only with the tools of the model's configuration, never for the client, and returns no url_citation annotations",
    );
  }
  if (Object.keys(request.logit_bias ?? {}).length > 0) {
    throw unsupportedParameter(
      'logit_bias',
      'is not supported: the answer is an agent run of many model calls, and the gateway passes no token biases to them, so a token banned or favoured would not be',
    );
  }
}

/** Tools and functions of the client's: refused unless the request asks for no call of them. */
function refuseClientTools(request: ChatCompletionRequest): void {
  if (forcesACall(request.tool_choice)) {
    throw unsupportedValue(
      'tool_choice',
      "'tool_choice' supports only 'auto' and 'none': the agent runs its own tools and never returns tool_calls for the client's.",
    );
  }
  if (forcesACall(request.function_call)) {
    throw unsupportedValue(
      'function_call',
      "'function_call' supports only 'auto' and 'none': the agent runs its own tools and never returns a function call.",
    );
  }
  if ((request.tools?.length ?? 0) > 0 && request.tool_choice !== 'none') {
    throw unsupportedParameter('tools', toolsRefusal('tool_choice'));
  }
  if ((request.functions?.length ?? 0) > 0 && request.function_call !== 'none') {
    throw unsupportedParameter('functions', toolsRefusal('function_call'));
  }
}
