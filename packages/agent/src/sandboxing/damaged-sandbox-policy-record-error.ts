import { AgentError } from '../errors.js';

/**
 * A conversation's sandbox policy record (`x_sandbox_policy.json`) that does not parse. It is the audit of what ran
 * under which policy, so it is never replaced by a new one behind the reader's back: the conversation is not opened
 * until a person looks at it and moves it aside (or deletes it), after which the policy opened with is recorded
 * anew.
 */
export class DamagedSandboxPolicyRecordError extends AgentError {
  /** The record's path in the conversation's store. */
  readonly path: string;
  /** What is wrong with it. */
  readonly problem: string;

  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super(
      'sandbox_policy_record_damaged',
      `The sandbox policy record ${path} is damaged (${problem}); it is kept as it is, not replaced. Look at it, ` +
        'then move it aside or delete it to open the conversation again: the policy it is opened with is then ' +
        'recorded anew, and the history of earlier policies is only in the file moved aside.',
      options,
    );
    this.path = path;
    this.problem = problem;
  }
}
