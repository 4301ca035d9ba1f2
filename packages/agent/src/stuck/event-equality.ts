import type { AnyEvent } from '@x/events';
import { deepEqual } from './internal/deep-equal.js';

/**
 * The stuck detector's notion of "the same event" (reference `_event_eq`): ids, timestamps, tool-call ids
 * and response ids are ignored so that a repeated call is recognised although every event is new.
 * ActionEvent: source, thought, action, tool_name. ObservationEvent: source, observation, tool_name.
 * AgentErrorEvent: source, error. MessageEvent: source, llm_message. Any other kind: full equality.
 */
export function stuckEventsEqual(left: AnyEvent, right: AnyEvent): boolean {
  if (left.kind !== right.kind) return false;
  if (left.kind === 'ActionEvent' && right.kind === 'ActionEvent') {
    return (
      left.source === right.source &&
      left.tool_name === right.tool_name &&
      deepEqual(left.thought, right.thought) &&
      deepEqual(left.action, right.action)
    );
  }
  if (left.kind === 'ObservationEvent' && right.kind === 'ObservationEvent') {
    return (
      left.source === right.source &&
      left.tool_name === right.tool_name &&
      deepEqual(left.observation, right.observation)
    );
  }
  if (left.kind === 'AgentErrorEvent' && right.kind === 'AgentErrorEvent') {
    return left.source === right.source && left.error === right.error;
  }
  if (left.kind === 'MessageEvent' && right.kind === 'MessageEvent') {
    return left.source === right.source && deepEqual(left.llm_message, right.llm_message);
  }
  return deepEqual(left, right);
}
