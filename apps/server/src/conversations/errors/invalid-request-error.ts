import { ServerError } from '../../errors.js';

/** A request that is well-formed JSON but cannot be carried out (bad agent config, no condenser, ...). */
export class InvalidRequestError extends ServerError {
  readonly statusCode: number;

  constructor(message: string, options: { statusCode?: number; cause?: unknown } = {}) {
    super('invalid_request', message, options.cause === undefined ? {} : { cause: options.cause });
    this.statusCode = options.statusCode ?? 400;
  }
}
