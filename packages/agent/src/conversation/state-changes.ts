import type { AnyEvent } from '@x/events';
import type { ConversationState } from '../state/conversation-state.js';

/** A state change: the key of a ConversationStateUpdateEvent (or `execution_status`) and its value. */
export interface StateChange {
  key: string;
  value: unknown;
}

export type StateChangeListener = (state: ConversationState, change: StateChange) => void;

/**
 * Subscribes `listener` to state changes only: every ConversationStateUpdateEvent, and a status an event implies
 * without one (a FinishObservation finishes) as `execution_status`, each with the state after it.
 */
export function subscribeStateChanges(
  source: { readonly state: ConversationState; subscribe(listener: (event: AnyEvent) => void): () => void },
  listener: StateChangeListener,
): () => void {
  let status = source.state.execution_status;
  return source.subscribe((event) => {
    const changed = source.state.execution_status !== status;
    status = source.state.execution_status;
    if (event.kind === 'ConversationStateUpdateEvent') listener(source.state, { key: event.key, value: event.value });
    else if (changed) listener(source.state, { key: 'execution_status', value: status });
  });
}
