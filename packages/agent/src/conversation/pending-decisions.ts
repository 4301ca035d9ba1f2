import { confirmDecidedActions } from '../approvals/confirm-decided.js';
import { applyDecision, recordOf, settleWaiting } from '../approvals/decide.js';
import { decideByRules } from '../approvals/decide-by-rules.js';
import { claimDecision } from '../approvals/decision-records.js';
import { approvalHostOf } from './approval-host-of.js';
import type { RunHost } from './run-host.js';

/*
 * The two places where a decision on all the pending actions (those waiting for confirmation) is applied; a
 * decision per action is `decidePendingActions` (approvals/). Both go through the per-action decision records, so
 * whichever decision is recorded first for an action is the one that holds.
 */

/** Confirms the actions waiting for confirmation: the run's next step executes them (reference §8.3). */
export async function confirmPendingActions(host: RunHost, now?: () => Date): Promise<void> {
  // The run loop asks before every step; only a waiting conversation has anything to confirm (checked again inside),
  // so the approval host is not built for nothing at each step.
  if (host.state().execution_status !== 'waiting_for_confirmation') return;
  await confirmDecidedActions(approvalHostOf(host), now);
}

/**
 * Answers every pending action with a UserRejectObservation; a waiting conversation becomes idle. An action
 * another decision was already recorded for keeps that decision (it is applied instead).
 */
export async function rejectPendingActions(host: RunHost, reason: string, principal = 'user'): Promise<void> {
  const approvals = approvalHostOf(host);
  for (const action of await host.conversation.pendingActions()) {
    const denial = recordOf(action, { kind: 'deny', reason }, principal, new Date(), undefined);
    const { record } = await claimDecision(approvals.store, approvals.directory, denial);
    await applyDecision(approvals, action, record);
  }
  await settleWaiting(approvals);
}

/**
 * After a step left actions waiting: with approval rules, they decide what they answer. Returns whether the run
 * must stop for a person (always, without rules).
 */
export async function waitsForPerson(host: RunHost): Promise<boolean> {
  if (host.approvalRules === undefined) return true;
  return (await decideByRules(approvalHostOf(host), host.approvalRules)).needsPerson;
}
