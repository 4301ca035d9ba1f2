import { AgentError } from '../errors.js';

/** A sandbox policy that does not parse, or a workspace the sandbox cannot mount. */
export class InvalidSandboxPolicyError extends AgentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('sandbox_policy_invalid', message, options);
  }
}
