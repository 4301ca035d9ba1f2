import { EventsError } from '../errors.js';

/**
 * A Chat Completions message cannot be imported as events: it answers an unknown tool call, or uses a
 * role, content part or tool-call type the event model has no place for. `index` is the message's
 * position in the input and `path` the offending field.
 */
export class ChatImportError extends EventsError {
  readonly index: number;
  readonly path: string;

  constructor(options: { index: number; path: string; message: string }) {
    super('chat_import', `Cannot import chat message ${options.index} (${options.path}): ${options.message}`);
    this.index = options.index;
    this.path = options.path;
  }
}
