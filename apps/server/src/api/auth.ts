import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Whether `candidate` is one of `keys`, compared in constant time (hashes have equal lengths). */
export function isValidSessionKey(candidate: string | undefined, keys: readonly string[]): boolean {
  if (candidate === undefined) return false;
  const given = digest(candidate);
  let valid = false;
  for (const key of keys) valid = timingSafeEqual(given, digest(key)) || valid;
  return valid;
}

/**
 * §11.1: with session keys configured, every `/api` request needs `X-Session-API-Key` (header names
 * are case-insensitive; Node lowercases them) to be one of them, else 401 `{"detail":"Unauthorized"}`.
 * Health and info routes and /openapi.json stay open. Registered as an onRequest hook, so it guards
 * every route, including ones added later.
 */
export function installSessionAuth(app: FastifyInstance, keys: readonly string[]): void {
  if (keys.length === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path !== '/api' && !path.startsWith('/api/')) return;
    const header = request.headers['x-session-api-key'];
    const candidate = Array.isArray(header) ? header[0] : header;
    if (!isValidSessionKey(candidate, keys)) {
      return reply.code(401).send({ detail: 'Unauthorized' });
    }
  });
}
