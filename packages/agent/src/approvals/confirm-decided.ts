import type { ApprovalHost } from './approval-host.js';
import { applyDecision, recordOf } from './decide.js';
import { claimDecision, readDecision } from './decision-records.js';
import { crashPoint } from './internal/crash-point.js';

/** The principal of the approvals a run gives implicitly (reference: running a waiting conversation confirms). */
export const IMPLICIT_RUN_PRINCIPAL = 'run';

/**
 * A run starting while actions wait for confirmation: every pending action gets a decision record (those without
 * one are approved implicitly, as the reference's run confirms, recorded with principal `run`), recorded decisions
 * not yet in the log are applied, and the actions left approved run in this run's next step (status `running`;
 * with none left, the step shows the model its denied or substituted results).
 * Because each action has exactly one record, a person's denial racing with a run's implicit approval resolves
 * to one of them, never both. A call to a tool the client runs is never approved implicitly: it stays pending
 * until the client's result is decided (`substitute`), and the step leaves the run waiting again.
 */
export async function confirmDecidedActions(host: ApprovalHost, now: () => Date = () => new Date()): Promise<void> {
  if (host.state().execution_status !== 'waiting_for_confirmation') return;
  const byClient = new Set(host.tools.filter((tool) => tool.executedByClient === true).map((tool) => tool.name));
  for (const action of await host.pendingActions()) {
    if (byClient.has(action.tool_name)) {
      // Only the client answers its own tool's call: a run never approves it, and applies the answer it gave.
      const given = await readDecision(host.store, host.directory, action.id);
      if (given !== undefined) await applyDecision(host, action, given);
      continue;
    }
    const implicit = recordOf(action, { kind: 'approve' }, IMPLICIT_RUN_PRINCIPAL, now(), undefined);
    const { record } = await claimDecision(host.store, host.directory, implicit);
    await applyDecision(host, action, record);
  }
  crashPoint('before-status-running');
  await host.setStatus('running');
  crashPoint('after-status-running');
}
