import type { FastifyInstance } from 'fastify';
import { faceOfRequest, sendRefusal } from '../api/router-refusal.js';
import type { createHostOriginCheck } from './host-origin.js';

/**
 * Runs the Host/Origin check on every HTTP request, matched or not, before any other hook (and so before
 * the session key, body parsing and the 404 handler): refused requests get 403 in the shape of the face they were
 * addressed to (`{"detail": ...}` on the REST API, a JSON-RPC error on A2A and MCP, OpenAI's error on `/v1`).
 */
export function installHostOriginCheck(app: FastifyInstance, check: ReturnType<typeof createHostOriginCheck>): void {
  app.addHook('onRequest', (request, reply, done) => {
    const refused = check(request.headers, request.raw.url, request.raw.rawHeaders);
    if (refused === undefined) {
      done();
      return;
    }
    void sendRefusal(reply, faceOfRequest(request), {
      status: refused.status,
      message: refused.detail,
      reason: refused.problem,
    });
  });
}
