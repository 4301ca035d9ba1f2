import { AgentError } from '../errors.js';

/**
 * Thrown by a tool for a failure the model can correct (bad input, missing file, ...). The step loop reports it
 * as an AgentErrorEvent classified `agent_action` (retryable), like the reference's `ValueError` (§9.5 step 4);
 * any other thrown error is classified `internal`.
 */
export class ToolExecutionError extends AgentError {
  /** Name of the tool that failed. */
  readonly toolName: string;

  constructor(toolName: string, message: string, options?: { cause?: unknown }) {
    super('tool_execution', message, options);
    this.toolName = toolName;
  }
}
