import { AgentError } from '../../errors.js';

/**
 * An LLM's usage id that the conversation's stats cannot key: `usage_to_metrics` is a JSON object, and a JSON
 * object's `__proto__` key is its prototype to JavaScript, so the spend under that id would be dropped from the
 * stats, from base_state.json and from every budget.
 */
export class InvalidUsageIdError extends AgentError {
  declare readonly code: 'invalid_usage_id';
  readonly usageId: string;

  constructor(usageId: string) {
    super('invalid_usage_id', `The usage id ${JSON.stringify(usageId)} cannot be used: choose another name`);
    this.usageId = usageId;
  }
}
