import { AgentError } from '../errors.js';

/** A command cannot run under the sandbox's policy as given (its directory is outside every mounted path). */
export class SandboxCommandError extends AgentError {
  constructor(message: string) {
    super('sandbox_command_invalid', message);
  }
}
