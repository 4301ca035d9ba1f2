import type { ActionEvent } from '@x/events';
import type { ApprovalHost } from './approval-host.js';
import { type ApprovalRules, evaluateApprovalRules } from './approval-rules.js';
import { applyDecision, recordOf, settleWaiting } from './decide.js';
import { claimDecision, readDecision } from './decision-records.js';

export interface RuleSettings {
  rules: ApprovalRules;
  /** Whether the confirmation policy alone asks a person about these actions (for `not-applicable` ones). */
  policyRequires(actions: readonly ActionEvent[]): boolean;
  now?: () => Date;
}

/**
 * After a step left actions waiting: the rules decide those they approve or deny (recorded with the rule as
 * principal, denials carried into the log). Returns whether a person must still decide (a `user-approval`, or a
 * `not-applicable` action the confirmation policy asks about); when not, the run goes on and runs the approved.
 */
export async function decideByRules(host: ApprovalHost, settings: RuleSettings): Promise<{ needsPerson: boolean }> {
  const now = settings.now ?? (() => new Date());
  const undecided: ActionEvent[] = [];
  let needsPerson = false;
  for (const action of await host.pendingActions()) {
    if ((await readDecision(host.store, host.directory, action.id)) !== undefined) continue;
    const verdict = evaluateApprovalRules(settings.rules, action);
    if (verdict.status === 'user-approval') needsPerson = true;
    if (verdict.status === 'not-applicable') undecided.push(action);
    if (verdict.principal === undefined || (verdict.status !== 'approved' && verdict.status !== 'denied')) continue;
    const decision =
      verdict.status === 'approved' ? { kind: 'approve' as const } : { kind: 'deny' as const, reason: verdict.reason! };
    const { record } = await claimDecision(
      host.store,
      host.directory,
      recordOf(action, decision, verdict.principal, now(), undefined),
    );
    await applyDecision(host, action, record);
  }
  await settleWaiting(host);
  if (undecided.length > 0 && settings.policyRequires(undecided)) needsPerson = true;
  return { needsPerson };
}
