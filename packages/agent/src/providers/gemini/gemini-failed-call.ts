import type { MessageToolCall } from '@x/events';
import { generatedIdPrefix } from './gemini-render.js';

/**
 * Gemini's finish reasons for a tool call the model attempted and Gemini could not deliver (the `FinishReason`
 * enum of `@google/genai`): the reply then holds no function call, though the model meant to make one.
 */
export const failedToolCallReasons: ReadonlySet<string> = new Set([
  'MALFORMED_FUNCTION_CALL',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
]);

/**
 * The failed attempt as a tool call named after the finish reason (Gemini refuses a function call without a
 * name, and `@google/genai` 2.x drops the `finishMessage` that quotes the attempt), with arguments that are not
 * JSON: the agent's step treats it as any model's call with unparseable arguments and tells the model.
 */
export function failedToolCall(reason: string, responseId: string): MessageToolCall {
  return {
    id: `${generatedIdPrefix}${responseId}_0`,
    name: reason.toLowerCase(),
    arguments: `${reason}: Gemini could not read the function call the model made`,
    origin: 'completion',
  };
}
