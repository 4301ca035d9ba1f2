import type { EventJson } from './types.js';

/** Persisted events the timeline does not draw (state field changes are shown in the header instead). */
export function isHiddenInTimeline(event: EventJson): boolean {
  return event.kind === 'ConversationStateUpdateEvent' || event.kind === 'TokenEvent';
}
