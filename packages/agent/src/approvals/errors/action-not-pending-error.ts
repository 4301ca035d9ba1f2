import { AgentError } from '../../errors.js';

/** A decision for an action that is not waiting for one (unknown, already answered, or running now). */
export class ActionNotPendingError extends AgentError {
  readonly conversationId: string;
  readonly actionId: string;

  constructor(conversationId: string, actionId: string, why: string) {
    super(
      'action_not_pending',
      `Action ${actionId} of conversation ${conversationId} is not waiting for a decision: ${why}.`,
    );
    this.conversationId = conversationId;
    this.actionId = actionId;
  }
}
