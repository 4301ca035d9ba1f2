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
    // The kind first: both tests are pure, and most results are not errors, so no actions are compared.
    if (results[index]!.kind !== 'AgentErrorEvent' || !stuckEventsEqual(actions[index]!, latest)) break;
    streak++;
  }
  return streak;
}
