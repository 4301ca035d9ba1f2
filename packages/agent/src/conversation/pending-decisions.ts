import { createEvent } from '@x/events';
import type { RunHost } from './run-host.js';

/*
 * SEAM (approvals, issue 31): the two places where a decision on the pending actions (those waiting for
 * confirmation) is applied. Confirming is implicit: the next run sets the status back to `running` and the
 * agent's step executes the pending actions; rejecting answers each with a UserRejectObservation. A decision
 * per action (approve one, reject another, recorded with who decided) goes here.
 */

/** Confirms the actions waiting for confirmation: the run's next step executes them (reference §8.3). */
export async function confirmPendingActions(host: RunHost): Promise<void> {
  if (host.state().execution_status === 'waiting_for_confirmation') await host.setStatus('running');
}

/** Answers every pending action with a UserRejectObservation; a waiting conversation becomes idle. */
export async function rejectPendingActions(host: RunHost, reason: string): Promise<void> {
  for (const action of await host.conversation.pendingActions()) {
    await host.emit(
      createEvent('UserRejectObservation', {
        tool_name: action.tool_name,
        tool_call_id: action.tool_call_id,
        action_id: action.id,
        rejection_reason: reason,
      }),
    );
  }
  if (host.state().execution_status === 'waiting_for_confirmation') await host.setStatus('idle');
}
