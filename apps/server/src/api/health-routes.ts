import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, serverInfoSchema, statusSchema } from './response-schemas.js';

export interface HealthRoutesOptions {
  version: string;
  startedAt: number;
  /** True once shutdown has begun (readiness turns false). */
  isShuttingDown(): boolean;
}

/** The route option that exempts a route from the session key (see security/route-auth.ts). */
const PUBLIC = { public: true };
const tags = ['health'];
/** Public routes need no key: the document says so with an empty security requirement. */
const security: never[] = [];
const errors = errorResponses([500]);

/** Unauthenticated liveness/readiness/info routes (§11.1). */
export function registerHealthRoutes(fastify: FastifyInstance, options: HealthRoutesOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const info = () => ({
    title: '@x/server',
    version: options.version,
    uptime: (Date.now() - options.startedAt) / 1000,
    docs: '/docs',
    openapi: '/openapi.json',
  });
  const ok = { 200: statusSchema.describe('Always {"status": "ok"} while the process answers'), ...errors };
  app.get(
    '/alive',
    { schema: { tags, summary: 'Liveness', operationId: 'alive', security, response: ok }, config: PUBLIC },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/health',
    { schema: { tags, summary: 'Health', operationId: 'health', security, response: ok }, config: PUBLIC },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags,
        summary: 'Readiness',
        operationId: 'ready',
        security,
        response: {
          200: statusSchema.describe('{"status": "ready"}'),
          503: statusSchema.describe('{"status": "shutting_down"}'),
          ...errors,
        },
      },
      config: PUBLIC,
    },
    async (_request, reply) => {
      if (options.isShuttingDown()) return reply.code(503).send({ status: 'shutting_down' });
      return { status: 'ready' };
    },
  );
  const infoResponse = { 200: serverInfoSchema, ...errors };
  app.get(
    '/server_info',
    {
      schema: { tags, summary: 'Server information', operationId: 'serverInfo', security, response: infoResponse },
      config: PUBLIC,
    },
    async () => info(),
  );
}
