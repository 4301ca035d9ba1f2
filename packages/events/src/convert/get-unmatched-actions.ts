import type { AnyEvent } from '../schemas/events.js';
import type { ActionEvent } from '../schemas/llm-convertible-events.js';

/**
 * Executable actions that no later result answers (reference §8.4), in log order. An observation or
 * rejection matches by `action_id`, an AgentErrorEvent by `tool_call_id`; a result only counts when it
 * comes after its action. Actions without an `action` (non-executable calls) are never pending.
 */
export function getUnmatchedActions(events: readonly AnyEvent[]): ActionEvent[] {
  const matchedActionIds = new Set<string>();
  const matchedToolCallIds = new Set<string>();
  const unmatched: ActionEvent[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as AnyEvent;
    switch (event.kind) {
      case 'ObservationEvent':
      case 'UserRejectObservation':
        matchedActionIds.add(event.action_id);
        break;
      case 'AgentErrorEvent':
        matchedToolCallIds.add(event.tool_call_id);
        break;
      case 'ActionEvent':
        if (
          event.action !== undefined &&
          !matchedActionIds.has(event.id) &&
          !matchedToolCallIds.has(event.tool_call_id)
        ) {
          unmatched.push(event);
        }
        break;
    }
  }
  return unmatched.reverse();
}
