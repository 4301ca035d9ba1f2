import { AgentError } from '../errors.js';

/** Control was to pass to (or a resumed conversation's log names) an agent the conversation was not given. */
export class UnknownAgentError extends AgentError {
  /** The name that was not found. */
  readonly agentName: string;
  /** The names the conversation knows. */
  readonly known: readonly string[];

  constructor(agentName: string, known: readonly string[], where: string) {
    super(
      'unknown_agent',
      `${where}: no agent named '${agentName}' (the conversation's agents: ${known.map((name) => `'${name}'`).join(', ')}). ` +
        'Pass it in ConversationOptions.agents.',
    );
    this.agentName = agentName;
    this.known = known;
  }
}
