import { AgentError } from '../../errors.js';

/**
 * An operation that would take a step (`condense()`) on a conversation whose actions wait for a decision: the step
 * would execute them with none (a step executes the pending actions first). Nothing is recorded.
 */
export class ActionsAwaitDecisionError extends AgentError {
  readonly conversationId: string;
  readonly actionIds: readonly string[];

  constructor(conversationId: string, operation: string, actionIds: readonly string[]) {
    super(
      'actions_await_decision',
      `Cannot ${operation} conversation ${conversationId}: it waits for a decision on ${actionIds.length} pending ` +
        `action(s) (${actionIds.join(', ')}), which its step would execute undecided. Decide them (decide, ` +
        'rejectPendingActions) or run the conversation first.',
    );
    this.conversationId = conversationId;
    this.actionIds = actionIds;
  }
}
