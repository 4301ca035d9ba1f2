import { EventsError } from '../errors.js';

/**
 * The conversation tree (reference §7.7) cannot be walked: an unknown event id (`unknown_event`) or a
 * cycle of parents (`cycle`). Names the event where the walk stopped.
 */
export class EventTreeError extends EventsError {
  readonly eventId: string;
  readonly reason: 'unknown_event' | 'cycle';

  constructor(reason: 'unknown_event' | 'cycle', eventId: string) {
    super(
      'event_tree',
      reason === 'cycle'
        ? `Cycle in event tree at ${eventId}`
        : `Unknown event id in the conversation tree: ${eventId}`,
    );
    this.eventId = eventId;
    this.reason = reason;
  }
}
