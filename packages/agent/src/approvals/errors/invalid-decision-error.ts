import { AgentError } from '../../errors.js';

/** A decision that cannot apply to its action: edited arguments or a substitute result the tool's schema refuses. */
export class InvalidDecisionError extends AgentError {
  readonly actionId: string;

  constructor(actionId: string, message: string, options: { cause?: unknown } = {}) {
    super('invalid_decision', `Decision for action ${actionId}: ${message}`, options);
    this.actionId = actionId;
  }
}
