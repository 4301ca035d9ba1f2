import { type ActionEvent, createEvent } from '@x/events';
import type { RunHost } from '../run-host.js';

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

/**
 * A run that took the conversation over from an owner that died mid-run: the action it was executing may or
 * may not have had its effect. `'report'` answers it, `'rerun'` leaves it to run again, `'confirm'` waits for a
 * human (`'awaiting-human'`: the run does nothing now).
 */
export async function answerInFlightAction(
  host: RunHost,
  mode: 'report' | 'rerun' | 'confirm',
): Promise<'taken' | 'awaiting-human'> {
  if (host.state().execution_status !== 'running') return 'taken';
  const [inFlight] = await host.conversation.pendingActions();
  if (inFlight === undefined || mode === 'rerun') return 'taken';
  if (mode === 'report') {
    await host.emit(interruptedActionEvent(inFlight));
    return 'taken';
  }
  await host.setStatus('waiting_for_confirmation');
  await host.checkpoint();
  return 'awaiting-human';
}
