import { ClientError } from '../errors.js';

/**
 * The server answered 404 for a route it does not have (an older server, or one in the reference's shape
 * without this extension), while the conversation itself exists: not a "conversation not found".
 */
export class RemoteRouteNotFoundError extends ClientError {
  readonly method: string;
  readonly url: string;

  /** `why`: how the 404 was told from a missing resource (default: the conversation exists). */
  constructor(init: { method: string; url: string; why?: string }) {
    super(
      'remote_route_not_found',
      `The server does not support ${init.method} ${init.url} (${init.why ?? '404 for an existing conversation'})`,
    );
    this.method = init.method;
    this.url = init.url;
  }
}
