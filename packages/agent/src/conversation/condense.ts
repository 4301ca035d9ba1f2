import { createEvent } from '@x/events';
import { ActionsAwaitDecisionError } from './errors/actions-await-decision-error.js';
import { CondenserUnavailableError } from './errors/condenser-unavailable-error.js';
import type { RunHost } from './run-host.js';

/**
 * `Conversation.condense()`: a CondensationRequest, then exactly one agent step (reference §8.3). Refused while
 * actions wait for confirmation (`ActionsAwaitDecisionError`): a step executes the pending actions first, so the
 * reference's condense runs them with no decision, past whoever was to decide.
 */
export async function condense(host: RunHost): Promise<void> {
  host.assertOpen();
  const condenser = host.conversation.agent.condenser;
  if (condenser === undefined || !condenser.handlesCondensationRequests()) throw new CondenserUnavailableError();
  if (host.state().execution_status === 'waiting_for_confirmation') {
    const pending = host.state().pending_actions.map((action) => action.action_id);
    throw new ActionsAwaitDecisionError(host.conversation.id, 'condense', pending);
  }
  await host.emit(createEvent('CondensationRequest', {}));
  await host.conversation.agent.step(host.stepContext(undefined));
  await host.checkpoint();
}
