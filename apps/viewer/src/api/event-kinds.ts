import type { EventJson } from './types.js';

/**
 * Frames that are published live but never written to the log (§3.18, §11.4): they have no index,
 * so they never count for resuming and never enter the timeline.
 */
export function isPublishedOnly(event: EventJson): boolean {
  if (event.kind === 'StreamingDeltaEvent' || event.kind === 'ServerErrorEvent') return true;
  if (event.kind === 'LLMCompletionLogEvent') return true;
  return event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state';
}

/** Persisted events the timeline does not draw (state field changes are shown in the header instead). */
export function isHiddenInTimeline(event: EventJson): boolean {
  return event.kind === 'ConversationStateUpdateEvent' || event.kind === 'TokenEvent';
}
