import { AgentError } from '../../errors.js';

/** `sendMessage` was given a message the user cannot send (as the reference asserts, only the `user` role). */
export class InvalidMessageError extends AgentError {
  constructor(conversationId: string, detail: string) {
    super('invalid_message', `Cannot send this message to conversation ${conversationId}: ${detail}`);
  }
}
