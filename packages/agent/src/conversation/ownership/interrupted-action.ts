import { type ActionEvent, createEvent } from '@x/events';

/**
 * What the model is told about a tool call whose owner died mid-run: its effect is unknown, and it
 * was not run again. The wording follows the reference's restart text (§11.5), extended to say why.
 */
export const INTERRUPTED_ACTION_TEXT =
  'The process running this conversation stopped (killed, or its machine was lost) while this tool was in progress, ' +
  'and another took the conversation over. The tool execution was interrupted: whether it had any effect is unknown, ' +
  'and it was not run again. Check its effect before repeating it.';

/** The AgentErrorEvent that answers an action cut short by the death of its run's owner. */
export function interruptedActionEvent(action: ActionEvent) {
  return createEvent('AgentErrorEvent', {
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
    error: INTERRUPTED_ACTION_TEXT,
    classification: { kind: 'internal', retryable: false, user_action: 'none' },
  });
}
