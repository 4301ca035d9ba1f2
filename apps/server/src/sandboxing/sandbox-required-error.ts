import { ServerError } from '../errors.js';

/**
 * The server cannot sandbox the processes a conversation would start (bubblewrap missing or unusable) and was not
 * started with the explicit opt-out: it refuses to run tools rather than run them with its own authority.
 */
export class SandboxRequiredError extends ServerError {
  readonly statusCode = 503;
  /** Why no sandbox is available, as the probe said. */
  readonly reason: string;

  constructor(reason: string) {
    super(
      'sandbox_required',
      `No sandbox is available on this server (${reason}), so it runs no tools. Install bubblewrap, or restart ` +
        'the server with `x serve --unsandboxed` (config `unsandboxed: true`) to run them WITHOUT a sandbox, with ' +
        "the server's authority.",
    );
    this.reason = reason;
  }
}
