import { ServerError } from '../../errors.js';

/** The reference's 409 for a run (or condense) requested while a run is in progress. */
export class ConversationBusyError extends ServerError {
  readonly statusCode = 409;

  constructor(message = 'Conversation already running. Wait for completion or pause first.') {
    super('conversation_busy', message);
  }
}
