import { ClientError } from '../errors.js';

/** The server refused the session API key (HTTP 401, or WebSocket close 4001). Retrying will not help. */
export class RemoteAuthError extends ClientError {
  readonly url: string;

  constructor(url: string, options?: { cause?: unknown }) {
    super('remote_auth_failed', `The agent server at ${url} refused the session API key`, options);
    this.url = url;
  }
}
