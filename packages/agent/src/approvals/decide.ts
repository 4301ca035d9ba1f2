import { randomUUID } from 'node:crypto';
import type { ActionEvent } from '@x/events';
import { canonicalJson } from '@x/store';
import { zodProblems } from '../internal/zod-problems.js';
import type { ApprovalHost } from './approval-host.js';
import {
  type ActionDecision,
  type ApprovalDecision,
  actionDecisionSchema,
  BLANK_DENIAL_REASON,
  type DecisionContext,
  type DecisionRecord,
} from './decision.js';
import { decisionEvents, editedAction } from './decision-events.js';
import { claimDecision, editOutboxPath, readDecision, readEditOutboxEntry } from './decision-records.js';
import { ActionNotPendingError } from './errors/action-not-pending-error.js';
import { DecisionConflictError } from './errors/decision-conflict-error.js';
import { InvalidDecisionError } from './errors/invalid-decision-error.js';
import { crashPoint } from './internal/crash-point.js';

/**
 * Decides on actions waiting for confirmation, one decision per action. All are checked before anything is
 * recorded (not pending → `ActionNotPendingError`; not fitting the tool, or one action given two different decisions
 * → `InvalidDecisionError`; the same decision given twice counts once). Each is then
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
  const parsedDecisions = parseActionDecisions(decisions);
  const pending = new Map((await host.pendingActions()).map((action) => [action.id, action]));
  const planned: { action: ActionEvent; record: DecisionRecord }[] = [];
  const plannedDecisions = new Map<string, ApprovalDecision>();
  for (const { action_id: actionId, decision } of parsedDecisions) {
    const earlier = plannedDecisions.get(actionId);
    if (earlier !== undefined) {
      // Applied twice, one call would get two answers in the log (the record alone would only keep the first).
      if (canonicalJson(earlier) === canonicalJson(decision)) continue;
      throw new InvalidDecisionError(actionId, 'the request gives this action two different decisions');
    }
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
    if (replacement !== undefined) assertLastOfBatch(action, [...pending.values()], parsedDecisions);
    // Built now only to check the decision fits the tool: nothing is recorded when one of them does not.
    decisionEvents(action, decision, host.tools, replacement);
    planned.push({ action, record: recordOf(action, decision, context.principal, now(), replacement) });
    plannedDecisions.set(actionId, decision);
  }
  const results: DecisionRecord[] = [];
  // Edits last: the edited call must come after every other answer of its response (see `assertLastOfBatch`).
  const edited = (entry: { record: DecisionRecord }) => (entry.record.replacement_action_id === undefined ? 0 : 1);
  for (const { action, record } of planned.sort((a, b) => edited(a) - edited(b))) {
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
 * Every decision of a request checked before any is looked at: a later entry that is no decision is refused as one
 * (`InvalidDecisionError`), never read half-way by the checks of an earlier entry.
 */
export function parseActionDecisions(decisions: readonly unknown[]): ActionDecision[] {
  return decisions.map((input) => {
    const parsed = actionDecisionSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    const entry = input as { action_id?: unknown; decision?: unknown } | null | undefined;
    const actionId = String(entry?.action_id);
    if (isApprovalWithReason(entry?.decision)) throw new InvalidDecisionError(actionId, APPROVAL_REASON_REFUSED);
    if (parsed.error.issues.some(({ message }) => message === BLANK_DENIAL_REASON)) {
      throw new InvalidDecisionError(actionId, BLANK_DENIAL_REASON);
    }
    throw new InvalidDecisionError(actionId, `not a decision: ${zodProblems(parsed.error)}`);
  });
}

/**
 * Why an approval's `reason` is refused rather than dropped: the reference records a reason for a rejection only
 * (UserRejectObservation.rejection_reason), no event of its has a field for an approval's, and a reason accepted but
 * kept nowhere would tell the caller it was.
 */
const APPROVAL_REASON_REFUSED =
  "an approval carries no reason (only a denial's reason is recorded, as the UserRejectObservation's " +
  'rejection_reason the model sees); approve without one, or deny with it';

function isApprovalWithReason(decision: unknown): boolean {
  return (
    typeof decision === 'object' &&
    decision !== null &&
    (decision as { kind?: unknown }).kind === 'approve' &&
    Object.hasOwn(decision, 'reason')
  );
}

/**
 * After decisions were carried into the log: still waiting while an action is pending, else idle. The fold makes
 * a waiting conversation idle at any UserRejectObservation (reference), and running at an ActionEvent (an edited
 * call), though other actions of the batch still wait.
 */
export async function settleWaiting(host: ApprovalHost): Promise<void> {
  const pending = await host.pendingActions();
  const status = host.state().execution_status;
  if (pending.length > 0 && status !== 'waiting_for_confirmation' && !(await pausedWithDecided(host, pending))) {
    await host.setStatus('waiting_for_confirmation');
  }
  if (pending.length === 0 && status === 'waiting_for_confirmation') await host.setStatus('idle');
}

/**
 * Paused after a run approved its actions (the pause came before the step): they are decided, so nothing waits for a
 * person and the pause holds (the next run executes them). Waiting instead would undo the pause (`pause()` does
 * nothing while waiting), so a retried decision would lift it. An undecided one waits: a resumed run must not
 * execute it.
 */
async function pausedWithDecided(host: ApprovalHost, pending: readonly ActionEvent[]): Promise<boolean> {
  if (host.state().execution_status !== 'paused') return false;
  for (const action of pending) {
    if ((await readDecision(host.store, host.directory, action.id)) === undefined) return false;
  }
  return true;
}

/**
 * Carries a recorded decision into the log when it is not there yet (after a crash between the record and its
 * events, the next run calls this again): idempotent for an action that is still pending.
 */
export async function applyDecision(host: ApprovalHost, action: ActionEvent, record: DecisionRecord): Promise<void> {
  const replacementId = record.replacement_action_id;
  if (replacementId === undefined) {
    for (const event of decisionEvents(action, record.decision, host.tools)) {
      await host.emit(event);
      crashPoint('after-decision-event');
    }
    return;
  }
  const outbox = editOutboxPath(host.directory, replacementId);
  if ((await host.getEvent(replacementId)) === undefined) {
    await host.store.write(outbox, `${JSON.stringify({ original_action_id: action.id })}\n`);
    for (const event of decisionEvents(action, record.decision, host.tools, replacementId)) {
      await host.emit(event);
      crashPoint('after-decision-event');
    }
  }
  await finishEdit(host, action, record);
}

/** The call with edited arguments is in the log: it gets its own approval record, and the outbox entry goes. */
async function finishEdit(host: ApprovalHost, original: ActionEvent, record: DecisionRecord): Promise<void> {
  const replacementId = record.replacement_action_id!;
  await claimDecision(host.store, host.directory, {
    ...recordOf(original, { kind: 'approve' }, record.principal, new Date(record.decided_at), undefined),
    action_id: replacementId,
    tool_call_id: `${original.tool_call_id}_edited`,
    edited_from: original.id,
  });
  const outbox = editOutboxPath(host.directory, replacementId);
  if (await host.store.exists(outbox)) await host.store.delete(outbox);
}

/**
 * Once per run: finishes the edits a crash cut between answering the original call and appending the call with
 * the edited arguments (see `editOutboxPath`), so an approved edit is never lost.
 */
export async function recoverEditedActions(host: ApprovalHost): Promise<void> {
  const entries = await host.store.list(`${host.directory}/events/.decisions/edits`).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.endsWith('.json')) continue;
    const replacementId = decodeURIComponent(entry.slice(entry.lastIndexOf('/') + 1, -'.json'.length));
    const originalId = await readEditOutboxEntry(host.store, entry);
    const original = await host.getEvent(originalId);
    const record = await readDecision(host.store, host.directory, originalId);
    if (original?.kind !== 'ActionEvent' || record === undefined) continue;
    // Still pending: the run's confirmation applies the whole decision.
    if ((await host.pendingActions()).some((action) => action.id === originalId)) continue;
    if ((await host.getEvent(replacementId)) === undefined) {
      const args = record.decision.kind === 'approve' ? record.decision.arguments : undefined;
      if (args === undefined) continue;
      await host.emit(editedAction(original, args, host.tools, replacementId));
    }
    await finishEdit(host, original, record);
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

/**
 * A retry of the same decision by the same principal succeeds without recording anything again. Compared as
 * canonical JSON: a client that rebuilds its request may send the same edited arguments with their keys in another
 * order, which is the same decision.
 */
function sameDecision(existing: DecisionRecord, decision: ApprovalDecision, principal: string): boolean {
  return existing.principal === principal && canonicalJson(existing.decision) === canonicalJson(decision);
}

/**
 * The edited call follows the original's answer in the log; a call of the same response that runs later would put
 * its result after it, which the model APIs refuse (a tool result must follow its own assistant turn). So an edit
 * waits until the response's other pending calls are denied or substituted (in the same request or before).
 */
function assertLastOfBatch(action: ActionEvent, pending: readonly ActionEvent[], decisions: readonly ActionDecision[]) {
  const answeredNow = new Set(
    decisions.filter((input) => input.decision.kind !== 'approve').map((input) => input.action_id),
  );
  const others = pending.filter(
    (other) => other.id !== action.id && other.llm_response_id === action.llm_response_id && !answeredNow.has(other.id),
  );
  if (others.length === 0) return;
  throw new InvalidDecisionError(
    action.id,
    `edited arguments need the other pending calls of the same response (${others.map((other) => other.id).join(', ')}) denied or substituted first, or in the same request`,
  );
}

function notPendingReason(host: ApprovalHost, action: ActionEvent | undefined): string {
  if (action === undefined) return 'no such action is waiting (unknown, or it already has a result)';
  return `the conversation is ${host.state().execution_status}, not waiting_for_confirmation`;
}
