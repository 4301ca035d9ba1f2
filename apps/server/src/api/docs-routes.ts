import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { makeScopePublic } from '../security/index.js';

/** Where the interactive API documentation is served. */
export const DOCS_PREFIX = '/docs';

/**
 * The page only loads its own assets (served from the package, no CDN: it works offline) and talks only to
 * this server: no inline script, no inline style but Swagger UI's own, no frames, no plugins, no forms elsewhere.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI's bundle injects one fixed <style> element; its hash (for the pinned @fastify/swagger-ui 5.2.6)
  // admits exactly that one and nothing else inline. The browser test fails if a new version changes it.
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * `GET /docs`: Swagger UI over this server's OpenAPI document, public (like /openapi.json), with the
 * Content-Security-Policy above on every response of the page. "Try it out" sends the key typed into
 * "Authorize" as `X-Session-API-Key`; nothing is stored server-side.
 */
export async function registerDocsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    makeScopePublic(scope);
    await scope.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      staticCSP: DOCS_CONTENT_SECURITY_POLICY,
      validatorUrl: false,
      uiConfig: { deepLinking: true, tryItOutEnabled: false, persistAuthorization: false },
      theme: { title: '@x/server API' },
    });
  });
}
