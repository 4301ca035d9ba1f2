import { invalidRequest, type OpenAiGatewayError } from './openai-error.js';
import type { ResponsesRequest } from './responses-request.js';

function unsupportedValue(param: string, message: string): OpenAiGatewayError {
  return invalidRequest(`Unsupported value: ${message}`, param, 'unsupported_value');
}

function unsupportedParameter(param: string, message: string): OpenAiGatewayError {
  return invalidRequest(`Unsupported parameter: '${param}' ${message}`, param, 'unsupported_parameter');
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Refuses what the gateway cannot honour in a Responses request, as the chat face does for Chat Completions (400
 * `invalid_request_error`, code `unsupported_value` or `unsupported_parameter`, the field in `param`), before any run
 * starts. Each of these changes what the client gets back, so ignoring it would hand the client something else than it
 * asked for:
 * - `tools` (any, but with `tool_choice: 'none'`, which asks for no call of them): the agent runs its own tools and
 *   never returns a `function_call` item for the client to run, nor runs OpenAI's hosted tools (web search, file
 *   search, ...); a forcing `tool_choice` likewise.
 * - `background: true`: the answer would be polled for; the gateway answers in the request (or its stream).
 * - `text.format` other than `text`, logprobs (`top_logprobs`, `include: ['message.output_text.logprobs']`): the
 *   agent's final answer is free text from a run, not one sampling.
 * - `conversation` and `prompt`: OpenAI's Conversations and stored prompts, which the gateway does not serve
 *   (`previous_response_id` continues a conversation).
 * - `moderation`: the client would be handed an answer nobody moderated, without the `moderation` results (or the
 *   block) it asked for.
 * `store: false` is honoured (the response is not kept for `retrieve` or `previous_response_id`), and sampling
 * options (`temperature`, `max_output_tokens`, `reasoning`, `truncation`, ...) are accepted and ignored.
 */
export function refuseUnsupportedResponseParameters(request: ResponsesRequest): void {
  const body = request as Record<string, unknown>;
  if (Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none') {
    throw unsupportedParameter(
      'tools',
      "is not supported: the agent runs its own tools and never returns a function_call for the client's, nor runs hosted tools (tools sent with tool_choice: 'none', which calls none of them, are accepted)",
    );
  }
  const choice = body.tool_choice;
  if (choice === 'required' || (typeof choice === 'object' && choice !== null)) {
    throw unsupportedValue(
      'tool_choice',
      "'tool_choice' supports only 'auto' and 'none': the agent runs its own tools and never returns a function_call.",
    );
  }
  if (body.background === true) {
    throw unsupportedValue(
      'background',
      "'background' does not support true: the gateway answers in the request or its stream. Supported values are: false.",
    );
  }
  const format = (body.text as { format?: { type?: unknown } | null } | null | undefined)?.format?.type;
  if (format !== undefined && format !== 'text') {
    throw unsupportedValue(
      'text.format',
      `'text.format.type' does not support '${String(format)}': the agent's final answer is free text. Supported values are: 'text'.`,
    );
  }
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0) {
    throw unsupportedParameter('top_logprobs', 'is not supported: the answer is an agent run, not one sampling');
  }
  if (Array.isArray(body.include) && body.include.includes('message.output_text.logprobs')) {
    throw unsupportedValue(
      'include',
      "'include' does not support 'message.output_text.logprobs': the answer is an agent run, not one sampling.",
    );
  }
  if (isSet(body.conversation)) {
    throw unsupportedParameter(
      'conversation',
      'is not supported: the gateway serves no Conversations API; continue with previous_response_id',
    );
  }
  if (isSet(body.prompt)) {
    throw unsupportedParameter('prompt', 'is not supported: the gateway keeps no prompt templates; send input');
  }
  if (isSet(body.moderation)) {
    throw unsupportedParameter('moderation', 'is not supported: the gateway runs no moderation of input or output');
  }
}
