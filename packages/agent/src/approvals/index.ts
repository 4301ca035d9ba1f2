export type { ApprovalHost } from './approval-host.js';
export {
  type ApprovalRule,
  type ApprovalRules,
  type ApprovalStatus,
  approvalRuleSchema,
  approvalRulesSchema,
  approvalStatusSchema,
  BLANK_RULE_REASON,
  checkApprovalRules,
  evaluateApprovalRules,
  type RuleVerdict,
} from './approval-rules.js';
export { IMPLICIT_RUN_PRINCIPAL } from './confirm-decided.js';
export { decidePendingActions } from './decide.js';
export {
  type ActionDecision,
  type ApprovalDecision,
  actionDecisionSchema,
  approvalDecisionSchema,
  type DecisionContext,
  type DecisionRecord,
  decisionRecordSchema,
} from './decision.js';
export { EDITED_ARGUMENTS_REASON } from './decision-events.js';
export { decisionRecordPath, readDecision } from './decision-records.js';
export { ActionNotPendingError } from './errors/action-not-pending-error.js';
export { DecisionConflictError } from './errors/decision-conflict-error.js';
export { DecisionRecordDamagedError } from './errors/decision-record-damaged-error.js';
export { InvalidApprovalRuleError } from './errors/invalid-approval-rule-error.js';
export { InvalidDecisionError } from './errors/invalid-decision-error.js';
export { PrincipalNotAllowedError } from './errors/principal-not-allowed-error.js';
