import type { AnyEvent } from '@x/events';
import { stuckEventsEqual } from './event-equality.js';
import { actionErrorStreak } from './internal/action-error-streak.js';
import { recentActionsAndObservations, recentActionsAndResults } from './internal/recent-tool-events.js';
import { resolveStuckThresholds, type StuckThresholds, type StuckThresholdsInput } from './stuck-thresholds.js';
import { stuckWindow } from './stuck-window.js';

/** Which loop the agent is caught in. */
export type StuckPattern =
  | 'repeated_action_observation'
  | 'repeated_action_error'
  | 'monologue'
  | 'alternating_pattern'
  | 'context_window_error_loop';

/**
 * Judges the events of the active branch (reference §10 `is_stuck`) and names the first pattern found, in
 * the reference's order, or null. Only the window of `stuckWindow` is read, so the cost does not grow
 * with the conversation.
 */
export function isStuck(events: readonly AnyEvent[], thresholds: StuckThresholdsInput = {}): StuckPattern | null {
  return detectStuckPattern(stuckWindow(events), resolveStuckThresholds(thresholds));
}

/** `isStuck` over an already computed window with already validated thresholds. */
export function detectStuckPattern(window: readonly AnyEvent[], thresholds: StuckThresholds): StuckPattern | null {
  const shortest = Math.min(
    thresholds.actionObservation,
    thresholds.actionError,
    thresholds.monologue,
    thresholds.contextWindowErrorLoop,
  );
  if (window.length < shortest) return null;

  const limit = Math.max(thresholds.actionObservation, thresholds.actionError + 1);
  const { actions, results } = recentActionsAndObservations(window, limit);
  if (repeatsActionObservation(actions, results, thresholds.actionObservation)) return 'repeated_action_observation';
  if (actionErrorStreak(actions, results) > thresholds.actionError) return 'repeated_action_error';
  if (agentMonologueLength(window) >= thresholds.monologue) return 'monologue';
  if (alternates(window, thresholds.alternatingPattern)) return 'alternating_pattern';
  if (condensationCycles(window) >= thresholds.contextWindowErrorLoop) return 'context_window_error_loop';
  return null;
}

function repeatsActionObservation(actions: readonly AnyEvent[], results: readonly AnyEvent[], threshold: number) {
  if (actions.length < threshold || results.length < threshold) return false;
  return allEqualToFirst(actions.slice(0, threshold)) && allEqualToFirst(results.slice(0, threshold));
}

function allEqualToFirst(events: readonly AnyEvent[]): boolean {
  const first = events[0]!;
  return events.every((event) => stuckEventsEqual(event, first));
}

/**
 * Agent messages in a row at the end of the window. Summaries are skipped, environment messages neither
 * count nor stop the scan; a user message or any other event ends it.
 */
function agentMonologueLength(window: readonly AnyEvent[]): number {
  let count = 0;
  for (let index = window.length - 1; index >= 0; index--) {
    const event = window[index]!;
    if (event.kind === 'CondensationSummaryEvent') continue;
    if (event.kind !== 'MessageEvent' || event.source === 'user') break;
    if (event.source === 'agent') count++;
  }
  return count;
}

function alternates(window: readonly AnyEvent[], threshold: number): boolean {
  if (window.length < threshold) return false;
  const { actions, results } = recentActionsAndResults(window, threshold);
  if (actions.length !== threshold || results.length !== threshold) return false;
  for (let index = 0; index < threshold - 2; index++) {
    if (!stuckEventsEqual(actions[index]!, actions[index + 2]!)) return false;
    if (!stuckEventsEqual(results[index]!, results[index + 2]!)) return false;
  }
  return true;
}

/**
 * Condensation cycles since the LLM last made progress (an action, a tool result or an agent message).
 * A context-window error emits a CondensationRequest and the condenser answers with a Condensation, so a
 * healthy cycle holds one of each; counting the larger of the two also catches a condenser that never
 * answers (requests only) or a condensation that never leads to an LLM call (condensations only).
 */
function condensationCycles(window: readonly AnyEvent[]): number {
  let requests = 0;
  let condensations = 0;
  for (let index = window.length - 1; index >= 0; index--) {
    const event = window[index]!;
    if (event.kind === 'CondensationRequest') requests++;
    else if (event.kind === 'Condensation') condensations++;
    else if (isLLMProgress(event)) break;
  }
  return Math.max(requests, condensations);
}

function isLLMProgress(event: AnyEvent): boolean {
  switch (event.kind) {
    case 'ActionEvent':
    case 'ObservationEvent':
    case 'UserRejectObservation':
    case 'AgentErrorEvent':
      return true;
    case 'MessageEvent':
      return event.source === 'agent';
    default:
      return false;
  }
}
