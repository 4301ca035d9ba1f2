import { AgentError } from '../errors.js';

/**
 * No sandbox can be had on this machine (bubblewrap missing, user namespaces disabled, not Linux). Never
 * answered by running the command unsandboxed: the caller must choose `mode: 'unsandboxed'` explicitly.
 */
export class SandboxUnavailableError extends AgentError {
  /** Why the probe failed, as bubblewrap or the platform said it. */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      'sandbox_unavailable',
      `No sandbox is available: ${reason}. Install bubblewrap (Debian/Ubuntu: \`apt-get install bubblewrap\`, ` +
        'or run tooling/scripts/ensure-bubblewrap.sh) on a Linux host with user namespaces enabled, or opt out ' +
        "explicitly with a sandbox policy of `mode: 'unsandboxed'` (commands then run with the server's authority).",
      options,
    );
    this.reason = reason;
  }
}
