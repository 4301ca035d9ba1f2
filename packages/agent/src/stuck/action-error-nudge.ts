import type { AnyEvent } from '@x/events';
import { actionErrorStreak } from './internal/action-error-streak.js';
import { recentActionsAndObservations } from './internal/recent-tool-events.js';
import { resolveStuckThresholds, type StuckThresholds, type StuckThresholdsInput } from './stuck-thresholds.js';
import { stuckWindow } from './stuck-window.js';

export interface ActionErrorNudge {
  /** Id of the latest AgentErrorEvent of the streak; remember it so the same streak is nudged once. */
  errorEventId: string;
  /** The text to send as a MessageEvent (source environment, role user). */
  text: string;
}

/**
 * The reference's `get_action_error_nudge` (§10): when the agent has made the same call exactly
 * `actionError` times in a row and got an AgentErrorEvent each time, a hint to change course. Returns
 * null when the streak is shorter or longer, or its latest error is in `alreadyNudgedErrorIds`.
 * The run loop checks this before `isStuck`, so a 4th identical failure (default) is stuck, not nudged.
 */
export function actionErrorNudge(
  events: readonly AnyEvent[],
  thresholds: StuckThresholdsInput = {},
  alreadyNudgedErrorIds: ReadonlySet<string> = new Set(),
): ActionErrorNudge | null {
  return findActionErrorNudge(stuckWindow(events), resolveStuckThresholds(thresholds), alreadyNudgedErrorIds);
}

/** `actionErrorNudge` over an already computed window with already validated thresholds. */
export function findActionErrorNudge(
  window: readonly AnyEvent[],
  thresholds: StuckThresholds,
  alreadyNudgedErrorIds: ReadonlySet<string>,
): ActionErrorNudge | null {
  const { actions, results } = recentActionsAndObservations(window, thresholds.actionError + 1);
  if (actionErrorStreak(actions, results) !== thresholds.actionError) return null;
  const latestError = results[0];
  const latestAction = actions[0];
  if (latestError?.kind !== 'AgentErrorEvent' || latestAction === undefined) return null;
  if (alreadyNudgedErrorIds.has(latestError.id)) return null;
  return {
    errorEventId: latestError.id,
    text:
      `You've called \`${latestAction.tool_name}\` with the same arguments ${thresholds.actionError} times in a row ` +
      `and gotten the same error each time: ${latestError.error}. Repeating the exact same call again will not ` +
      'work — review the error message and either correct the arguments or try a different approach.',
  };
}
