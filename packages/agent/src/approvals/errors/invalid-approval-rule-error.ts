import { AgentError } from '../../errors.js';

/**
 * An approval rule that cannot be used (`ConversationOptions.approvalRules`): `rule` names it as its principal does,
 * by its `name` or else its index in the list, and the message says what was wrong.
 */
export class InvalidApprovalRuleError extends AgentError {
  declare readonly code: 'invalid_approval_rule';
  readonly rule: string;

  constructor(rule: string, problem: string, options: { cause?: unknown } = {}) {
    super('invalid_approval_rule', `Invalid approval rule '${rule}': ${problem}`, options);
    this.rule = rule;
  }
}
