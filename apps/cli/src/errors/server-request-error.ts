import { CliError } from '../errors.js';

/** A remote command could not reach or use the server. */
export class ServerRequestError extends CliError {
  readonly url: string;

  constructor(url: string, message: string, options: { cause?: unknown; exitCode?: number; hint?: string } = {}) {
    super('server_request_failed', message, options);
    this.url = url;
  }
}
