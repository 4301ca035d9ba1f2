import type { FastifyInstance } from 'fastify';
import type { createHostOriginCheck } from './host-origin.js';

/**
 * Runs the Host/Origin check on every HTTP request, matched or not, before any other hook (and so before
 * the session key, body parsing and the 404 handler): refused requests get 403 `{"detail": ...}`.
 */
export function installHostOriginCheck(app: FastifyInstance, check: ReturnType<typeof createHostOriginCheck>): void {
  app.addHook('onRequest', (request, reply, done) => {
    const refused = check(request.headers, request.raw.url, request.raw.rawHeaders);
    if (refused === undefined) {
      done();
      return;
    }
    void reply.code(refused.status).send({ detail: refused.detail });
  });
}
