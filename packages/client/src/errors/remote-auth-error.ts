import { ClientError } from '../errors.js';

/**
 * The server refused the request's credentials: HTTP 401 (the session API key is missing or wrong) or 403 (the key
 * may not do this), on a REST call or on the event stream's upgrade, or WebSocket close 4001. Retrying will not help.
 */
export class RemoteAuthError extends ClientError {
  readonly url: string;
  /** The HTTP status (401 or 403); undefined for a close code 4001, where the stream says no more. */
  readonly status: number | undefined;

  constructor(url: string, options?: { status?: number; detail?: string; cause?: unknown }) {
    const status = options?.status;
    const refused =
      status === 403 ? 'refused access with the session API key (HTTP 403)' : 'refused the session API key';
    const detail = options?.detail === undefined || options.detail === '' ? '' : `: ${options.detail}`;
    super('remote_auth_failed', `The agent server at ${url} ${refused}${detail}`, { cause: options?.cause });
    this.url = url;
    this.status = status;
  }
}
