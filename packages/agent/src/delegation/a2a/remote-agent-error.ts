import { AgentError } from '../../errors.js';

/** A remote A2A agent did not answer a delegated task: it failed, rejected or canceled it, or the call failed. */
export class RemoteAgentError extends AgentError {
  declare readonly code: 'remote_agent_failed';
  /** The remote agent's base URL. */
  readonly url: string;

  constructor(url: string, message: string, options: { cause?: unknown } = {}) {
    super('remote_agent_failed', `The A2A agent at ${url} ${message}`, options);
    this.url = url;
  }
}
