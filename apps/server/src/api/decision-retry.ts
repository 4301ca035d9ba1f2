import type { Conversation } from '@x/agent';
import { RUN_STATE_KEY } from '@x/agent';

/**
 * Whether the answers a retried decision names still wait for a run: the log holds an answer to one of `actionIds`
 * (a denial's UserRejectObservation, a substituted result) with no run recorded after it, because the first request
 * died before its run began. Once a run began after them (whatever the status now: finished, errored, or idle again
 * after a message or a navigation), the retry starts none, so nothing runs a second time. Read back from the end of
 * the log up to the first run record or answer: a retry reads only the events since the last run.
 */
export async function answersAwaitRun(conversation: Conversation, actionIds: readonly string[]): Promise<boolean> {
  const named = new Set(actionIds);
  const { log } = conversation;
  for (let index = log.length - 1; index >= 0; index--) {
    const event = await log.get(index);
    if (event.kind === 'ConversationStateUpdateEvent' && event.key === RUN_STATE_KEY) return false;
    const answer = event.kind === 'UserRejectObservation' || event.kind === 'ObservationEvent';
    if (answer && named.has(event.action_id)) return true;
  }
  return false;
}
