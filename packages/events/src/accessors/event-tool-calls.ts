import type { MessageToolCall } from '../schemas/content.js';
import type { AnyEvent } from '../schemas/events.js';

/** The tool calls an event carries: an agent message's `tool_calls`, or an action's `tool_call`. */
export function getEventToolCalls(event: AnyEvent): readonly MessageToolCall[] {
  if (event.kind === 'ActionEvent') return [event.tool_call];
  if (event.kind === 'MessageEvent') return event.llm_message.tool_calls ?? [];
  return [];
}

/**
 * True for an event that ends the agent's turn with an answer: an agent MessageEvent without tool
 * calls, or an ActionEvent whose action is a `FinishAction`.
 */
export function isFinalResponse(event: AnyEvent): boolean {
  if (event.kind === 'MessageEvent') {
    return event.source === 'agent' && (event.llm_message.tool_calls ?? []).length === 0;
  }
  return event.kind === 'ActionEvent' && event.action?.kind === 'FinishAction';
}
