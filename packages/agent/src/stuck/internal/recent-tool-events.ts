import type { ActionEvent, AgentErrorEvent, AnyEvent, ObservationEvent, ObservationLikeEvent } from '@x/events';

export interface RecentToolEvents<R> {
  /** Most recent first. */
  actions: ActionEvent[];
  /** Most recent first. */
  results: R[];
}

/** Scans `window` backwards collecting up to `limit` ActionEvents and up to `limit` observation-like events. */
export function recentActionsAndObservations(
  window: readonly AnyEvent[],
  limit: number,
): RecentToolEvents<ObservationLikeEvent> {
  return collect(
    window,
    limit,
    (event): event is ObservationLikeEvent =>
      event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation' || event.kind === 'AgentErrorEvent',
  );
}

/** As above, but results are only ObservationEvents and AgentErrorEvents (the alternating check's rule). */
export function recentActionsAndResults(
  window: readonly AnyEvent[],
  limit: number,
): RecentToolEvents<ObservationEvent | AgentErrorEvent> {
  return collect(
    window,
    limit,
    (event): event is ObservationEvent | AgentErrorEvent =>
      event.kind === 'ObservationEvent' || event.kind === 'AgentErrorEvent',
  );
}

function collect<R extends AnyEvent>(
  window: readonly AnyEvent[],
  limit: number,
  isResult: (event: AnyEvent) => event is R,
): RecentToolEvents<R> {
  const actions: ActionEvent[] = [];
  const results: R[] = [];
  for (let index = window.length - 1; index >= 0; index--) {
    if (actions.length >= limit && results.length >= limit) break;
    const event = window[index]!;
    if (event.kind === 'ActionEvent') {
      if (actions.length < limit) actions.push(event);
    } else if (isResult(event) && results.length < limit) {
      results.push(event);
    }
  }
  return { actions, results };
}
