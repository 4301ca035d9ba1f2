import { randomUUID } from 'node:crypto';
import type { ActionEvent } from '@x/events';
import type { ApprovalHost } from './approval-host.js';
import {
  type ActionDecision,
  type ApprovalDecision,
  actionDecisionSchema,
  type DecisionContext,
  type DecisionRecord,
} from './decision.js';
import { decisionEvents } from './decision-events.js';
import { claimDecision, readDecision } from './decision-records.js';
import { ActionNotPendingError } from './errors/action-not-pending-error.js';
import { DecisionConflictError } from './errors/decision-conflict-error.js';
import { InvalidDecisionError } from './errors/invalid-decision-error.js';
import { crashPoint } from './internal/crash-point.js';

/**
 * Decides on actions waiting for confirmation, one decision per action. All are checked before anything is
 * recorded (not pending → `ActionNotPendingError`; not fitting the tool → `InvalidDecisionError`). Each is then
 * recorded once (`events/.decisions/<action id>.json`, the first decision wins: a different decision already
 * there → `DecisionConflictError`; the same one again is a no-op) and carried into the log (see `decisionEvents`).
 * An approved action stays pending until the next run executes it. Once no action is left pending the
 * conversation becomes idle, as after `rejectPendingActions`.
 */
export async function decidePendingActions(
  host: ApprovalHost,
  decisions: readonly ActionDecision[],
  context: DecisionContext,
): Promise<DecisionRecord[]> {
  const now = context.now ?? (() => new Date());
  const pending = new Map((await host.pendingActions()).map((action) => [action.id, action]));
  const planned: { action: ActionEvent; record: DecisionRecord }[] = [];
  for (const input of decisions) {
    const parsed = actionDecisionSchema.safeParse(input);
    if (!parsed.success) {
      throw new InvalidDecisionError(String(input?.action_id), `not a decision: ${parsed.error.message}`);
    }
    const { action_id: actionId, decision } = parsed.data;
    const action = pending.get(actionId);
    if (action === undefined || host.state().execution_status !== 'waiting_for_confirmation') {
      const existing = await readDecision(host.store, host.directory, actionId);
      if (existing !== undefined && !sameDecision(existing, decision, context.principal)) {
        throw new DecisionConflictError(existing);
      }
      if (existing !== undefined) continue;
      throw new ActionNotPendingError(host.conversationId, actionId, notPendingReason(host, action));
    }
    const replacement = decision.kind === 'approve' && decision.arguments !== undefined ? randomUUID() : undefined;
    // Built now only to check the decision fits the tool: nothing is recorded when one of them does not.
    decisionEvents(action, decision, host.tools, replacement);
    planned.push({ action, record: recordOf(action, decision, context.principal, now(), replacement) });
  }
  const results: DecisionRecord[] = [];
  for (const { action, record } of planned) {
    const claimed = await claimDecision(host.store, host.directory, record);
    if (!claimed.created && !sameDecision(claimed.record, record.decision, record.principal)) {
      throw new DecisionConflictError(claimed.record);
    }
    crashPoint('after-decision-record');
    await applyDecision(host, action, claimed.record);
    results.push(claimed.record);
  }
  await settleWaiting(host);
  return results;
}

/**
 * After decisions were carried into the log: still waiting while an action is pending, else idle. The fold makes
 * a waiting conversation idle at any UserRejectObservation (reference), and running at an ActionEvent (an edited
 * call), though other actions of the batch still wait.
 */
export async function settleWaiting(host: ApprovalHost): Promise<void> {
  const left = (await host.pendingActions()).length;
  const status = host.state().execution_status;
  if (left > 0 && status !== 'waiting_for_confirmation') await host.setStatus('waiting_for_confirmation');
  if (left === 0 && status === 'waiting_for_confirmation') await host.setStatus('idle');
}

/**
 * Carries a recorded decision into the log when it is not there yet (after a crash between the record and its
 * events, the next run calls this again): idempotent for an action that is still pending.
 */
export async function applyDecision(host: ApprovalHost, action: ActionEvent, record: DecisionRecord): Promise<void> {
  const replacementId = record.replacement_action_id;
  if (replacementId !== undefined && (await host.hasEvent(replacementId))) return;
  for (const event of decisionEvents(action, record.decision, host.tools, replacementId)) {
    await host.emit(event);
    crashPoint('after-decision-event');
  }
  if (replacementId !== undefined) {
    await claimDecision(host.store, host.directory, {
      ...recordOf(action, { kind: 'approve' }, record.principal, new Date(record.decided_at), undefined),
      action_id: replacementId,
      tool_call_id: `${action.tool_call_id}_edited`,
      edited_from: action.id,
    });
  }
}

export function recordOf(
  action: ActionEvent,
  decision: ApprovalDecision,
  principal: string,
  at: Date,
  replacementActionId: string | undefined,
): DecisionRecord {
  return {
    action_id: action.id,
    tool_name: action.tool_name,
    tool_call_id: action.tool_call_id,
    decision,
    principal,
    decided_at: at.toISOString(),
    ...(replacementActionId === undefined ? {} : { replacement_action_id: replacementActionId }),
  };
}

/** A retry of the same decision by the same principal succeeds without recording anything again. */
function sameDecision(existing: DecisionRecord, decision: ApprovalDecision, principal: string): boolean {
  return existing.principal === principal && JSON.stringify(existing.decision) === JSON.stringify(decision);
}

function notPendingReason(host: ApprovalHost, action: ActionEvent | undefined): string {
  if (action === undefined) return 'no such action is waiting (unknown, or it already has a result)';
  return `the conversation is ${host.state().execution_status}, not waiting_for_confirmation`;
}
