// What both faces' refusals share: OpenAI's two refusal codes, and the reasons given on either face.
import { invalidRequest, type OpenAiGatewayError } from './openai-error.js';

export function unsupportedValue(param: string, message: string): OpenAiGatewayError {
  return invalidRequest(`Unsupported value: ${message}`, param, 'unsupported_value');
}

export function unsupportedParameter(param: string, message: string): OpenAiGatewayError {
  return invalidRequest(`Unsupported parameter: '${param}' ${message}`, param, 'unsupported_parameter');
}

/** Whether a `tool_choice` / `function_call` value makes the model call a tool (`required`, or one named). */
export function forcesACall(choice: unknown): boolean {
  return choice === 'required' || (typeof choice === 'object' && choice !== null);
}

/**
 * Why a token limit is refused, on either face: the answer is an agent run of many model calls, each bounded by the
 * model's own configuration, and the gateway has no tokenizer of the model to cut the answer at a token count.
 */
export const TOKEN_LIMIT_REFUSAL =
  "is not supported: the answer is an agent run of many model calls, each bounded by the agent's own configuration (llm.max_output_tokens of the model's create body), and the gateway has no tokenizer to cut the answer at a token count";

/** Why the client's tools are refused, on either face; `choiceParam` is the field that turns their calls off. */
export const toolsRefusal = (choiceParam: string): string =>
  `is not supported: the agent runs its own tools, so the model is never shown the client's and never calls them (sent with ${choiceParam}: 'none', which calls none of them, they are accepted)`;

/** Why `parallel_tool_calls: false` is refused, on either face: the agent's model calls the agent's tools as it will. */
export const SERIAL_TOOL_CALLS_REFUSAL =
  "'parallel_tool_calls' does not support false: the agent's model may call several of the agent's tools in one step, and the gateway cannot bound it to one. Supported values are: true.";
