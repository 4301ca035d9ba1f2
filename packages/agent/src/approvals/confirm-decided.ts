import type { ApprovalHost } from './approval-host.js';
import { applyDecision, recordOf } from './decide.js';
import { claimDecision } from './decision-records.js';
import { crashPoint } from './internal/crash-point.js';

/** The principal of the approvals a run gives implicitly (reference: running a waiting conversation confirms). */
export const IMPLICIT_RUN_PRINCIPAL = 'run';

/**
 * A run starting while actions wait for confirmation: every pending action gets a decision record (those without
 * one are approved implicitly, as the reference's run confirms, recorded with principal `run`), recorded decisions
 * not yet in the log are applied, and the actions left approved run in this run's next step (status `running`;
 * with none left, the step shows the model its denied or substituted results).
 * Because each action has exactly one record, a person's denial racing with a run's implicit approval resolves
 * to one of them, never both.
 */
export async function confirmDecidedActions(host: ApprovalHost, now: () => Date = () => new Date()): Promise<void> {
  if (host.state().execution_status !== 'waiting_for_confirmation') return;
  for (const action of await host.pendingActions()) {
    const implicit = recordOf(action, { kind: 'approve' }, IMPLICIT_RUN_PRINCIPAL, now(), undefined);
    const { record } = await claimDecision(host.store, host.directory, implicit);
    await applyDecision(host, action, record);
  }
  crashPoint('before-status-running');
  await host.setStatus('running');
  crashPoint('after-status-running');
}
