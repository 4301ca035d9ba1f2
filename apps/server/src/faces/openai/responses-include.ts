import { clientText } from '../../internal/client-text.js';
import { invalidRequest } from './openai-error.js';
import { unsupportedValue } from './parameter-refusals.js';
import type { ResponsesRequest } from './responses-request.js';

/**
 * The `include` values OpenAI documents that the gateway honours, each a field of an item kind its answers never hold,
 * so every answer holds what was asked. Hosted tools' items: the gateway refuses hosted tools (OpenAI too takes these
 * with no such tool). Input items: their fields show in an input item listing, which the gateway does not serve.
 * Reasoning items: the answer is the agent's final message; a stateless client (`store: false`, as Codex sends on every
 * request) asks for their encrypted content to send them back, and with none in the output it sends none.
 */
const HONOURED = [
  'reasoning.encrypted_content',
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'code_interpreter_call.outputs',
  'computer_call_output.output.image_url',
  'message.input_image.image_url',
] as const;

/** The documented values the gateway cannot honour, and why: each would add to the answer what it cannot give. */
const REFUSED: Readonly<Record<string, string>> = {
  'message.output_text.logprobs': 'the answer is an agent run, not one sampling',
};

/**
 * Refuses an `include` value the gateway does not honour, naming it by its index (`include[1]`) as OpenAI does: a value
 * OpenAI does not know is its 400 `invalid_value`, listing the values the gateway takes; a documented value the gateway cannot
 * honour is an `unsupported_value` saying why. Accepting either would let a client wait for a field that never comes.
 */
export function refuseUnsupportedIncludes(request: ResponsesRequest): void {
  for (const [index, value] of (request.include ?? []).entries()) {
    const param = `include[${index}]`;
    const refusal = Object.hasOwn(REFUSED, value) ? REFUSED[value] : undefined;
    if (refusal !== undefined) {
      throw unsupportedValue(param, `'include' does not support '${clientText(value)}': ${refusal}.`);
    }
    if (!(HONOURED as readonly string[]).includes(value)) {
      throw invalidRequest(
        `Invalid value: '${clientText(value)}'. Supported values are: ${HONOURED.map((known) => `'${known}'`).join(', ')}.`,
        param,
        'invalid_value',
      );
    }
  }
}
