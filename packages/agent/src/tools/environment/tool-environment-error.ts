import { AgentError } from '../../errors.js';

/** Thrown when a `toolEnvironment` option is invalid (a bad name, or a credential asked to be inherited). */
export class ToolEnvironmentError extends AgentError {
  constructor(message: string) {
    super('invalid_tool_environment', message);
  }
}
