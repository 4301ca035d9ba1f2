import { AgentError } from '../errors.js';

/** One problem found in a confirmation policy, located by its field path. */
export interface ConfirmationPolicyIssue {
  /** Dotted field path, e.g. `threshold`; empty for the policy itself. */
  path: string;
  message: string;
}

/** Thrown when a confirmation policy does not match any known `kind` or has an invalid field (§8.5). */
export class InvalidConfirmationPolicyError extends AgentError {
  declare readonly code: 'invalid_confirmation_policy';
  readonly issues: readonly ConfirmationPolicyIssue[];

  constructor(issues: readonly ConfirmationPolicyIssue[]) {
    const detail = issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`));
    super('invalid_confirmation_policy', `invalid confirmation policy: ${detail.join('; ')}`);
    this.issues = issues;
  }
}
