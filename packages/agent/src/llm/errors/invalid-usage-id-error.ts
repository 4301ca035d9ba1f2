import { AgentError } from '../../errors.js';

/**
 * A usage id the conversation's stats cannot take: one `usage_to_metrics` cannot key (a JSON object's `__proto__`
 * key is its prototype to JavaScript, so the spend under that id would be dropped from the stats, from
 * base_state.json and from every budget), or, where a tool records spending (`ToolConversation.recordUsage`), an id
 * one of the conversation's own models spends under (an agent's LLM or condenser), whose entry the tool's would
 * replace. `reason` says which.
 */
export class InvalidUsageIdError extends AgentError {
  declare readonly code: 'invalid_usage_id';
  readonly usageId: string;

  constructor(usageId: string, reason = 'choose another name') {
    super('invalid_usage_id', `The usage id ${JSON.stringify(usageId)} cannot be used: ${reason}`);
    this.usageId = usageId;
  }
}
