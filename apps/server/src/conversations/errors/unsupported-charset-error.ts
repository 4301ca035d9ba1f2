import { ServerError } from '../../errors.js';

/** A request body in a charset the server cannot decode (415, before any validation). */
export class UnsupportedCharsetError extends ServerError {
  readonly statusCode = 415;

  constructor(charset: string) {
    super(
      'unsupported_charset',
      `Unsupported charset '${charset}' in the Content-Type: send the JSON body in UTF-8 (or a charset the WHATWG Encoding standard names)`,
    );
  }
}
