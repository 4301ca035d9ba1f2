import { AgentError } from '../errors.js';
import type { SandboxLimitKind } from './sandbox-run-result.js';

/** A sandboxed command was stopped by one of its policy's limits; for callers that prefer to throw. */
export class SandboxLimitError extends AgentError {
  readonly limit: SandboxLimitKind;

  constructor(limit: SandboxLimitKind, command: string) {
    super('sandbox_limit', `The sandboxed command \`${command}\` was stopped by its ${limit.replace('_', ' ')} limit`);
    this.limit = limit;
  }
}
