import { ServerError } from '../../errors.js';

/**
 * A JSON body declared in a character set other than UTF-8 (415). JSON exchanged between systems is UTF-8 (RFC 8259
 * §8.1): a body in UTF-16 or Latin-1 read as UTF-8 would turn into other text, or fail as "not JSON" without
 * saying why, so it is refused naming the charset it declared.
 */
export class UnsupportedCharsetError extends ServerError {
  readonly statusCode = 415;
  readonly charset: string;

  constructor(charset: string) {
    super(
      'unsupported_charset',
      `Unsupported charset ${JSON.stringify(charset.slice(0, 40))} for a JSON body: send it as UTF-8 (charset=utf-8, or no charset)`,
    );
    this.charset = charset;
  }
}
