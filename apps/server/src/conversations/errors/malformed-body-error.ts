import { ServerError } from '../../errors.js';

/** A request body that is not valid JSON (400, before any validation). */
export class MalformedBodyError extends ServerError {
  readonly statusCode = 400;

  constructor(detail: string) {
    super('malformed_body', `Malformed JSON body: ${detail}`);
  }
}
