import { ServerError } from '../../errors.js';

/**
 * The conversation's files cannot be opened (truncated base_state.json, missing files, an agent config that
 * no longer builds, ...). 409: the resource exists but is not in a servable state; `reason` says why.
 */
export class ConversationDamagedError extends ServerError {
  declare readonly code: 'conversation_damaged';
  readonly statusCode = 409;
  readonly conversationId: string;
  readonly reason: string;

  constructor(conversationId: string, reason: string, options: { cause?: unknown } = {}) {
    super('conversation_damaged', `Conversation ${conversationId} is damaged and cannot be opened: ${reason}`, options);
    this.conversationId = conversationId;
    this.reason = reason;
  }

  /** `error` as a ConversationDamagedError of the conversation: itself when it is one, else one giving its message. */
  static of(conversationId: string, error: unknown): ConversationDamagedError {
    if (ConversationDamagedError.isInstance(error)) return error;
    return new ConversationDamagedError(conversationId, error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}
