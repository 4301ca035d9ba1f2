import type { ActionEvent, ObservationLikeEvent } from '@x/events';
import { stuckEventsEqual } from '../event-equality.js';

/**
 * Length of the run of (action, result) pairs, most recent first, in which the action equals the latest
 * action and the result is an AgentErrorEvent. Error texts are deliberately not compared (reference §10).
 */
export function actionErrorStreak(actions: readonly ActionEvent[], results: readonly ObservationLikeEvent[]): number {
  const latest = actions[0];
  if (latest === undefined) return 0;
  const pairs = Math.min(actions.length, results.length);
  let streak = 0;
  for (let index = 0; index < pairs; index++) {
    if (!stuckEventsEqual(actions[index]!, latest) || results[index]!.kind !== 'AgentErrorEvent') break;
    streak++;
  }
  return streak;
}
