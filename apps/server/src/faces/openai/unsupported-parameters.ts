import type { ChatCompletionRequest } from './chat-request.js';
import { invalidRequest, type OpenAiGatewayError } from './openai-error.js';

function unsupportedValue(param: string, message: string): OpenAiGatewayError {
  return invalidRequest(`Unsupported value: ${message}`, param, 'unsupported_value');
}

function unsupportedParameter(param: string, message: string): OpenAiGatewayError {
  return invalidRequest(`Unsupported parameter: '${param}' ${message}`, param, 'unsupported_parameter');
}

/** Whether a `tool_choice` / `function_call` value makes the model call a tool (`required`, or one named). */
function forcesACall(choice: unknown): boolean {
  return choice === 'required' || (typeof choice === 'object' && choice !== null);
}

/**
 * Refuses what the gateway cannot honour, the way OpenAI refuses what a model does not support (400
 * `invalid_request_error`, code `unsupported_value` or `unsupported_parameter`, the field in `param`). Each of these
 * changes the shape or the meaning of the answer the client expects, so accepting and ignoring it would hand the
 * client something else than it asked for: several choices, token log probabilities, JSON that obeys a schema, audio,
 * or a call of one of its own tools (the agent runs its own tools and never returns `tool_calls`). Options that only
 * tune sampling (`temperature`, `max_tokens`, `tools` with `tool_choice: auto`, ...) stay accepted and ignored.
 */
export function refuseUnsupportedParameters(request: ChatCompletionRequest): void {
  const body = request as Record<string, unknown>;
  if (typeof body.n === 'number' && body.n !== 1) {
    throw unsupportedValue('n', `'n' does not support ${body.n}: an agent gives one answer. Supported values are: 1.`);
  }
  if (body.logprobs === true) {
    throw unsupportedParameter('logprobs', 'is not supported: the answer is an agent run, not one sampling');
  }
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0) {
    throw unsupportedParameter('top_logprobs', 'is not supported: the answer is an agent run, not one sampling');
  }
  const format = (body.response_format as { type?: unknown } | null | undefined)?.type;
  if (format !== undefined && format !== 'text') {
    throw unsupportedValue(
      'response_format',
      `'response_format.type' does not support '${String(format)}': the agent's final answer is free text. Supported values are: 'text'.`,
    );
  }
  if (Array.isArray(body.modalities) && body.modalities.some((modality) => modality !== 'text')) {
    throw unsupportedValue('modalities', "'modalities' supports only 'text': the agent answers in text.");
  }
  if (body.audio !== undefined && body.audio !== null) {
    throw unsupportedParameter('audio', 'is not supported: the agent answers in text');
  }
  if (forcesACall(body.tool_choice)) {
    throw unsupportedValue(
      'tool_choice',
      "'tool_choice' supports only 'auto' and 'none': the agent runs its own tools and never returns tool_calls for the client's.",
    );
  }
  if (forcesACall(body.function_call)) {
    throw unsupportedValue(
      'function_call',
      "'function_call' supports only 'auto' and 'none': the agent runs its own tools and never returns a function call.",
    );
  }
}
