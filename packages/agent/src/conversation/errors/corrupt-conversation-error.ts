import { AgentError } from '../../errors.js';

/** A conversation's persisted files cannot be read. */
export class CorruptConversationError extends AgentError {
  readonly location: string;

  constructor(location: string, detail: string, options?: { cause?: unknown }) {
    super('corrupt_conversation', `Cannot read the conversation at ${location}: ${detail}`, options);
    this.location = location;
  }
}
