import { AgentError } from '../errors.js';

/** `ConversationOptions.agents` that cannot be told apart: a name given twice, or an empty one. */
export class InvalidAgentRosterError extends AgentError {
  constructor(message: string) {
    super('invalid_agent_roster', `ConversationOptions.agents: ${message}`);
  }
}
