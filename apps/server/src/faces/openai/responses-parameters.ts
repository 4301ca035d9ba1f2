import { clientText } from '../../internal/client-text.js';
import {
  forcesACall,
  SERIAL_TOOL_CALLS_REFUSAL,
  TOKEN_LIMIT_REFUSAL,
  toolsRefusal,
  unsupportedParameter,
  unsupportedValue,
} from './parameter-refusals.js';
import { refuseUnsupportedIncludes } from './responses-include.js';
import type { ResponsesRequest } from './responses-request.js';

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Refuses what the gateway cannot honour in a Responses request, as the chat face does for Chat Completions (400
 * `invalid_request_error`, code `unsupported_value` or `unsupported_parameter`, the field in `param`), before any run
 * starts. Each of these changes what the client gets back, so ignoring it would hand the client something else than it
 * asked for:
 * - `tools` (any, but with `tool_choice: 'none'`, which asks for no call of them): the agent runs its own tools and
 *   never returns a `function_call` item for the client to run, nor runs OpenAI's hosted tools (web search, file
 *   search, ...); a forcing `tool_choice` likewise. The chat face applies the same rule to its `tools`.
 * - `max_tool_calls`: OpenAI ignores the model's tool calls past it and still answers; the agent's run cannot skip a
 *   call and go on (its iteration limit ends the run in an error), so the bound would be a promise not kept.
 * - `max_output_tokens`: the answer is a run of many model calls, each bounded by the agent's configuration, and the
 *   gateway has no tokenizer to cut it at a token count (the chat face refuses `max_tokens` likewise).
 * - `background: true`: the answer would be polled for; the gateway answers in the request (or its stream).
 * - `text.format` other than `text`, `top_logprobs`: the agent's final answer is free text from a run, not one
 *   sampling.
 * - `include` values but those the answer holds anyway (`refuseUnsupportedIncludes`).
 * - `reasoning.summary` (and the deprecated `generate_summary`): the answer is the agent's final message, never a
 *   `reasoning` item, and the run's reasoning (many model calls, where the provider exposes any) stays in the
 *   conversation's events. OpenAI refuses it likewise for a model that gives no summary.
 * - `parallel_tool_calls: false`: the agent's model may call several of the agent's tools in one step, and the
 *   gateway has no way to bound it to one.
 * - `conversation` and `prompt`: OpenAI's Conversations and stored prompts, which the gateway does not serve
 *   (`previous_response_id` continues a conversation).
 * - `moderation`: the client would be handed an answer nobody moderated, without the `moderation` results (or the
 *   block) it asked for.
 * `store: false` is honoured (the response is not kept for `retrieve` or `previous_response_id`), and sampling
 * options (`temperature`, `reasoning.effort`, `truncation`, ...) are accepted and ignored. The values were type-checked by the
 * request schema.
 */
export function refuseUnsupportedResponseParameters(request: ResponsesRequest): void {
  if (forcesACall(request.tool_choice)) {
    throw unsupportedValue(
      'tool_choice',
      "'tool_choice' supports only 'auto' and 'none': the agent runs its own tools and never returns a function_call.",
    );
  }
  if ((request.tools?.length ?? 0) > 0 && request.tool_choice !== 'none') {
    throw unsupportedParameter('tools', toolsRefusal('tool_choice'));
  }
  if (request.background === true) {
    throw unsupportedValue(
      'background',
      "'background' does not support true: the gateway answers in the request or its stream. Supported values are: false.",
    );
  }
  const format = request.text?.format?.type;
  if (format !== undefined && format !== 'text') {
    throw unsupportedValue(
      'text.format',
      `'text.format.type' does not support '${clientText(format)}': the agent's final answer is free text. Supported values are: 'text'.`,
    );
  }
  if (typeof request.top_logprobs === 'number' && request.top_logprobs > 0) {
    throw unsupportedParameter('top_logprobs', 'is not supported: the answer is an agent run, not one sampling');
  }
  refuseUnsupportedIncludes(request);
  for (const field of ['summary', 'generate_summary'] as const) {
    if (isSet(request.reasoning?.[field])) {
      throw unsupportedParameter(
        `reasoning.${field}`,
        "is not supported: the answer is the agent's final message, with no reasoning item; the run's reasoning stays in the conversation's events (GET /api/conversations/{id}/events)",
      );
    }
  }
  if (request.parallel_tool_calls === false) {
    throw unsupportedValue('parallel_tool_calls', SERIAL_TOOL_CALLS_REFUSAL);
  }
  if (typeof request.max_output_tokens === 'number') {
    throw unsupportedParameter('max_output_tokens', TOKEN_LIMIT_REFUSAL);
  }
  if (isSet(request.max_tool_calls)) {
    throw unsupportedParameter(
      'max_tool_calls',
      "is not supported: OpenAI ignores a model's tool calls past the limit and still answers, and the agent's run has no such bound (its only bound, the conversation's max_iterations, ends the run in an error without an answer)",
    );
  }
  if (isSet(request.conversation)) {
    throw unsupportedParameter(
      'conversation',
      'is not supported: the gateway serves no Conversations API; continue with previous_response_id',
    );
  }
  if (isSet(request.prompt)) {
    throw unsupportedParameter('prompt', 'is not supported: the gateway keeps no prompt templates; send input');
  }
  // Any value asks for a moderation the gateway does not run, whatever its shape.
  if (isSet((request as { moderation?: unknown }).moderation)) {
    throw unsupportedParameter('moderation', 'is not supported: the gateway runs no moderation of input or output');
  }
}
