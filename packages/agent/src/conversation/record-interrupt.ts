import { createEvent } from '@x/events';
import type { RunHost } from './run-host.js';

/** What the model is told about a tool call the interrupt cut short (the reference's words). */
export const INTERRUPTED_TOOL_CALL_TEXT = 'Tool call interrupted before completion. The conversation was paused.';

/**
 * Records an interrupted run as the reference's `arun()` does on cancellation: an AgentErrorEvent for each
 * action left without a result (a tool call with no answer is refused by the providers on the next call),
 * then status `paused`, then an InterruptEvent. A later `run()` continues from there.
 */
export async function recordInterrupt(host: RunHost): Promise<void> {
  await host.settle();
  for (const action of await host.conversation.pendingActions()) {
    await host.emit(
      createEvent('AgentErrorEvent', {
        tool_name: action.tool_name,
        tool_call_id: action.tool_call_id,
        error: INTERRUPTED_TOOL_CALL_TEXT,
        // The reference's AGENT_OUTCOME classification.
        classification: { kind: 'agent_action', retryable: true, user_action: 'retry' },
      }),
    );
  }
  await host.setStatus('paused');
  await host.emit(createEvent('InterruptEvent', {}));
}
