import type { FastifyBaseLogger } from 'fastify';
import type { ConversationManager } from './conversation-manager.js';

/**
 * A single server started with `interruptedActions`: at start-up, every conversation its meta.json records as
 * `running` (a run the last process did not end) is opened, which handles the in-flight action as configured,
 * and its run resumed in the background. Reads every meta.json once; resolves with the number of runs resumed.
 */
export async function resumeInterruptedRuns(manager: ConversationManager, logger: FastifyBaseLogger): Promise<number> {
  let resumed = 0;
  for (const managed of await manager.list()) {
    if (managed.meta.execution_status !== 'running') continue;
    try {
      await managed.open();
      if (!managed.resumeAfterRestart) continue;
      managed.resumeAfterRestart = false;
      logger.warn({ conversationId: managed.id }, 'resuming a run the last process did not end');
      managed.startRun().catch((error: unknown) => {
        logger.error({ conversationId: managed.id, err: error }, 'an interrupted run could not be resumed');
      });
      resumed++;
    } catch (error) {
      logger.error({ conversationId: managed.id, err: error }, 'an interrupted run could not be resumed');
    }
  }
  return resumed;
}
