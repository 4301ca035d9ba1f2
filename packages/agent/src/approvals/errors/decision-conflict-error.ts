import { AgentError } from '../../errors.js';
import type { DecisionRecord } from '../decision.js';

/** A different decision was already recorded for the action (the first one wins); nothing of this one was recorded. */
export class DecisionConflictError extends AgentError {
  readonly actionId: string;
  /** The decision that won. */
  readonly existing: DecisionRecord;

  constructor(existing: DecisionRecord) {
    super(
      'decision_conflict',
      `Action ${existing.action_id} (${existing.tool_name}) was already decided: ${existing.decision.kind} by '${existing.principal}' at ${existing.decided_at}.`,
    );
    this.actionId = existing.action_id;
    this.existing = existing;
  }
}
