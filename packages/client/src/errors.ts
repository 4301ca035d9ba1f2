const marker = Symbol.for('@x/client.error');

/** What went wrong, one code per error class. */
export type ClientErrorCode =
  | 'invalid_option'
  | 'remote_auth_failed'
  | 'remote_conversation_not_found'
  | 'remote_git_failed'
  | 'remote_request_failed'
  | 'remote_route_not_found'
  | 'remote_run_failed'
  | 'remote_stream_closed'
  | 'remote_timeout'
  | 'remote_workspace_path_refused'
  | 'websocket_unavailable';

/** Base class of every error thrown by @x/client. Subclasses narrow `code`. */
export class ClientError extends Error {
  readonly [marker] = true;
  readonly code: ClientErrorCode;

  constructor(code: ClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /**
   * True for an error of this class or a subclass, also one created by another copy of the package
   * (duplicate installs): the base is recognised by a global symbol, a subclass by its class name.
   */
  static isInstance<T extends abstract new (...args: never[]) => ClientError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[marker] !== true) return false;
    if ((this as unknown) === ClientError) return true;
    for (let proto = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
      if ((proto as { constructor?: { name?: string } }).constructor?.name === this.name) return true;
    }
    return false;
  }
}
