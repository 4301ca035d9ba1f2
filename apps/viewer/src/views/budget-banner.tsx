import type { EventJson } from '../api/types.js';

/**
 * The last run stopped on its money budget: the server records it as the reference does (status `error`, a
 * ConversationErrorEvent with code `MaxBudgetReached` whose detail has the figures), so this reads the latest
 * error event. Shown until a run starts again.
 */
export function BudgetBanner({ status, events }: { status: string; events: readonly EventJson[] }) {
  if (status !== 'error') return null;
  const last = events.findLast((event) => event.kind === 'ConversationErrorEvent');
  if (last === undefined || last.code !== 'MaxBudgetReached') return null;
  return (
    <p class="budget-stop" role="status" data-testid="budget-stop">
      <strong>Budget reached.</strong> {typeof last.detail === 'string' ? last.detail : ''} Raise the budget (
      <code>POST /api/conversations/…/budget</code>, <code>x run --resume … --max-budget</code>) and run again to
      continue.
    </p>
  );
}
