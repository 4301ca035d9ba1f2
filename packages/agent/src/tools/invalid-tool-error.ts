import { AgentError } from '../errors.js';

/** Thrown by `defineTool` when a tool specification cannot be exposed to an LLM (bad name, non-object schema). */
export class InvalidToolError extends AgentError {
  /** The offending tool name. */
  readonly toolName: string;

  constructor(toolName: string, message: string) {
    super('invalid_tool', message);
    this.toolName = toolName;
  }
}
