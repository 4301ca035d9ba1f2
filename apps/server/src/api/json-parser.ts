import type { FastifyInstance } from 'fastify';
import { MalformedBodyError } from '../conversations/errors/malformed-body-error.js';

/**
 * JSON bodies: an empty body is "no body" (clients POST `/pause` with a JSON content type and nothing
 * else), invalid JSON is a 400 that says where it broke, and `__proto__` keys are dropped. The size
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
    try {
      done(
        null,
        JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)),
      );
    } catch (error) {
      done(new MalformedBodyError((error as Error).message), undefined);
    }
  });
}
