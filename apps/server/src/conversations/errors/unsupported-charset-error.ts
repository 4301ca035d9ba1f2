import { ServerError } from '../../errors.js';

/**
 * A request body in a charset the server cannot decode (415, before any validation): one the WHATWG Encoding
 * standard does not name. A body in a charset it names is read in that charset (see api/json-parser.ts).
 */
export class UnsupportedCharsetError extends ServerError {
  readonly statusCode = 415;
  readonly charset: string;

  constructor(charset: string) {
    super(
      'unsupported_charset',
      `Unsupported charset ${JSON.stringify(charset.slice(0, 40))} in the Content-Type: send the JSON body in UTF-8 (or a charset the WHATWG Encoding standard names)`,
    );
    this.charset = charset;
  }
}
