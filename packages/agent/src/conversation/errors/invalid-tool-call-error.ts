import { AgentError } from '../../errors.js';

/** `Conversation.executeTool` named a tool the agent does not have, or arguments its schema refuses. */
export class InvalidToolCallError extends AgentError {
  readonly toolName: string;

  constructor(toolName: string, message: string) {
    super('invalid_tool_call', message);
    this.toolName = toolName;
  }
}
