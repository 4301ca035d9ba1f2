import type { FastifyInstance } from 'fastify';
import { MalformedBodyError } from '../conversations/errors/malformed-body-error.js';
import { UnsupportedCharsetError } from '../conversations/errors/unsupported-charset-error.js';

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

/** The charsets a JSON body may declare: UTF-8, and ASCII, its subset. Compared in lower case. */
const UTF8_NAMES = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/** Decodes UTF-8, throwing on a malformed sequence; a leading byte order mark is dropped (RFC 8259 §8.1 allows it). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The `charset` parameter of a Content-Type header (unquoted), or undefined when it has none. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match === null ? undefined : (match[1] ?? match[2] ?? '');
}

/**
 * JSON bodies: an empty body is "no body" (clients POST `/pause` with a JSON content type and nothing
 * else), invalid JSON is a 400 that says where it broke, and `__proto__` keys are dropped. A number JSON cannot hold
 * (`1e400` parses to Infinity, which no event can store) and nesting beyond `MAX_BODY_DEPTH` are 400s too. The body
 * must be UTF-8: a body that is not is a 400, and a declared charset other than UTF-8 (or ASCII)
 * a 415 naming it (`UnsupportedCharsetError`), never text decoded into something the client did not send. The size
 * limit is Fastify's `bodyLimit` (413 above it).
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = declaredCharset(request.headers['content-type']);
    if (charset !== undefined && !UTF8_NAMES.has(charset.toLowerCase())) {
      done(new UnsupportedCharsetError(charset), undefined);
      return;
    }
    let text: string;
    try {
      text = typeof body === 'string' ? body : strictUtf8.decode(body);
    } catch {
      // Read leniently, each bad byte would become U+FFFD: text the client never sent, stored in its events.
      done(new MalformedBodyError('not valid UTF-8 (send JSON as UTF-8)'), undefined);
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
            throw new RangeError(`the number at '${key}' is out of range (a finite double)`);
          }
          return key === '__proto__' ? undefined : value;
        }),
      );
    } catch (error) {
      done(new MalformedBodyError((error as Error).message), undefined);
    }
  });
}
