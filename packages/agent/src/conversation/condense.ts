import { createEvent } from '@x/events';
import { CondenserUnavailableError } from './errors/condenser-unavailable-error.js';
import type { RunHost } from './run-host.js';

/** `Conversation.condense()`: a CondensationRequest, then exactly one agent step (reference §8.3). */
export async function condense(host: RunHost): Promise<void> {
  host.assertOpen();
  const condenser = host.conversation.agent.condenser;
  if (condenser === undefined || !condenser.handlesCondensationRequests()) throw new CondenserUnavailableError();
  await host.emit(createEvent('CondensationRequest', {}));
  await host.conversation.agent.step(host.stepContext(undefined));
  await host.checkpoint();
}
