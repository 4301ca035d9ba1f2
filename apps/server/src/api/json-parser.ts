import type { FastifyInstance } from 'fastify';
import { MalformedBodyError } from '../conversations/errors/malformed-body-error.js';

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

/**
 * JSON bodies: an empty body is "no body" (clients POST `/pause` with a JSON content type and nothing
 * else), invalid JSON is a 400 that says where it broke, and `__proto__` keys are dropped. A number JSON cannot hold
 * (`1e400` parses to Infinity, which no event can store) and nesting beyond `MAX_BODY_DEPTH` are 400s too. The size
 * limit is Fastify's `bodyLimit` (413 above it).
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
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
