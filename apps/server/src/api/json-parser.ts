import { TextDecoder } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { MalformedBodyError } from '../conversations/errors/malformed-body-error.js';
import { UnsupportedCharsetError } from '../conversations/errors/unsupported-charset-error.js';
import { clientText } from '../internal/client-text.js';

/**
 * How deeply a request body may nest. What a request carries ends up in events (an AG-UI state, a message's
 * extended content, a tool's schema), which may nest at most 512 levels (`@x/events`), a few of them the event's
 * own: a deeper body is refused here with a 400 naming the limit, not when its event is appended (a 500 then, after
 * part of the request was applied) or by the parser running out of stack.
 */
export const MAX_BODY_DEPTH = 256;

/** Whether the JSON text nests arrays and objects more than `limit` levels deep (brackets in strings do not count). */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth++;
      if (depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}

/** The `charset` a Content-Type names, lower-cased; utf-8 when it names none. */
function charsetOf(contentType: string | undefined): string {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const charset = (match?.[1] ?? match?.[2] ?? '').trim().toLowerCase();
  return charset === '' ? 'utf-8' : charset;
}

/**
 * The body's text in the charset its Content-Type names (UTF-8 when it names none, as JSON is exchanged): a body in
 * another charset read as UTF-8 would reach the agent with its accented letters turned into U+FFFD, and bytes that are
 * not valid in the charset would be replaced the same way, so both are refused instead of read wrong.
 */
function decodeBody(body: Buffer, contentType: string | undefined): string {
  const charset = charsetOf(contentType);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new UnsupportedCharsetError(charset);
  }
  try {
    return decoder.decode(body);
  } catch {
    throw new MalformedBodyError(`the body is not valid ${decoder.encoding} text (the charset of its Content-Type)`);
  }
}

/**
 * JSON bodies, decoded in the charset the Content-Type names (UTF-8 by default; an unknown charset is a 415, bytes not
 * valid in it a 400): an empty body is "no body" (clients POST `/pause` with a JSON content type and nothing
 * else), invalid JSON is a 400 that says where it broke, and `__proto__` keys are dropped. A number JSON cannot hold
 * (`1e400` parses to Infinity, which no event can store) and nesting beyond `MAX_BODY_DEPTH` are 400s too. The size
 * limit is Fastify's `bodyLimit` (413 above it).
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = typeof body === 'string' ? body : decodeBody(body, request.headers['content-type']);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      done(new MalformedBodyError(`nested more than ${MAX_BODY_DEPTH} levels deep`), undefined);
      return;
    }
    try {
      done(
        null,
        JSON.parse(text, (key, value: unknown) => {
          if (typeof value === 'number' && !Number.isFinite(value)) {
            throw new RangeError(`the number at '${clientText(key)}' is out of range (a finite double)`);
          }
          return key === '__proto__' ? undefined : value;
        }),
      );
    } catch (error) {
      done(new MalformedBodyError((error as Error).message), undefined);
    }
  });
}
