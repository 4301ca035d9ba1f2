import { AgentError } from '../errors.js';

/**
 * A limit of the sandbox's policy that this host gives the server no way to enforce; nothing was started. Turn
 * the limit off explicitly (`limits: { [limit]: 'unlimited' }`, `--sandbox-limit processes=unlimited`) to run
 * without it.
 */
export class SandboxLimitUnavailableError extends AgentError {
  /** The policy's limit that cannot be enforced. */
  readonly limit: 'processes';

  constructor(limit: 'processes', missing: string) {
    super(
      'sandbox_limit_unavailable',
      `The sandbox's ${limit} limit cannot be enforced here: ${missing}. Nothing was started. Make a cgroup ` +
        `controller writable for the server, or turn the limit off explicitly with the sandbox policy's ` +
        `\`limits: { ${limit}: 'unlimited' }\` (CLI: \`--sandbox-limit ${limit}=unlimited\`).`,
    );
    this.limit = limit;
  }
}
