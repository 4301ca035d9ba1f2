import type { ConversationErrorEvent } from '@x/events';
import { AgentError } from '../../errors.js';

/**
 * A run failed at the conversation level: the conversation is in the `error` status and its log ends
 * with the ConversationErrorEvent carried here. `cause` is the original error.
 */
export class ConversationRunError extends AgentError {
  readonly conversationId: string;
  readonly location: string;
  readonly errorEvent: ConversationErrorEvent;

  constructor(options: {
    conversationId: string;
    location: string;
    errorEvent: ConversationErrorEvent;
    cause: unknown;
  }) {
    super(
      'conversation_run_failed',
      `Conversation ${options.conversationId} failed: ${options.errorEvent.code}: ${options.errorEvent.detail} (persisted at ${options.location})`,
      { cause: options.cause },
    );
    this.conversationId = options.conversationId;
    this.location = options.location;
    this.errorEvent = options.errorEvent;
  }
}
