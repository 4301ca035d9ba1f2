import { ServerError } from '../../errors.js';

/**
 * A request that is well-formed JSON but cannot be carried out (bad agent config, no condenser, ...). A 422 names
 * where the problem is as FastAPI's `loc` does (`['query', 'timestamp__gte']`, `['body', 'agent', 'condenser']`);
 * without one it is the body as a whole.
 */
export class InvalidRequestError extends ServerError {
  readonly statusCode: number;
  readonly loc: readonly string[];

  constructor(message: string, options: { statusCode?: number; cause?: unknown; loc?: readonly string[] } = {}) {
    super('invalid_request', message, options.cause === undefined ? {} : { cause: options.cause });
    this.statusCode = options.statusCode ?? 400;
    this.loc = options.loc ?? ['body'];
  }
}
