import type { AnyEvent } from '@x/events';
import { applyEvent } from './apply-event.js';
import { type ConversationState, initialConversationState } from './conversation-state.js';

/**
 * Time travel: the state after the first `count` events (all of them by default). Pure; the same
 * events always give the same state.
 */
export async function stateAt(
  id: string,
  events: Iterable<AnyEvent> | AsyncIterable<AnyEvent>,
  count = Number.POSITIVE_INFINITY,
): Promise<ConversationState> {
  let state = initialConversationState({ id });
  if (count <= 0) return state;
  for await (const event of events) {
    state = applyEvent(state, event);
    if (state.event_count >= count) break;
  }
  return state;
}
