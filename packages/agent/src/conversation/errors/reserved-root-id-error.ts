import { ROOT_PARENT_ID } from '@x/events';
import { AgentError } from '../../errors.js';

/**
 * `navigateTo` or `fork({ fromEventId })` named the reserved root id `"__root__"`: it is the parent id of a root
 * event, never an event, so no event can be found by it. `navigateTo(null)` empties HEAD (the next event is a new
 * root); a fork at the root starts from the system prompt (`fromEventId` its id).
 */
export class ReservedRootIdError extends AgentError {
  readonly conversationId: string;
  readonly eventId: string;

  constructor(conversationId: string, operation: 'navigateTo' | 'fork') {
    super(
      'reserved_root_id',
      `"${ROOT_PARENT_ID}" is the reserved parent id of a root, not an event of conversation ${conversationId}: ` +
        (operation === 'navigateTo'
          ? 'navigateTo(null) starts a new root'
          : 'fork at the system prompt (fromEventId its id), or fork the whole log and navigateTo(null)'),
    );
    this.conversationId = conversationId;
    this.eventId = ROOT_PARENT_ID;
  }
}
