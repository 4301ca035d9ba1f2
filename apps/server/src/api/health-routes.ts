import type { FastifyInstance } from 'fastify';

export interface HealthRoutesOptions {
  version: string;
  startedAt: number;
  /** True once shutdown has begun (readiness turns false). */
  isShuttingDown(): boolean;
}

/** The route option that exempts a route from the session key (see security/route-auth.ts). */
const PUBLIC = { public: true };

/** Unauthenticated liveness/readiness/info routes (§11.1). */
export function registerHealthRoutes(app: FastifyInstance, options: HealthRoutesOptions): void {
  const info = () => ({
    title: '@x/server',
    version: options.version,
    uptime: (Date.now() - options.startedAt) / 1000,
    docs: '/openapi.json',
  });
  app.get('/alive', { schema: { tags: ['health'], summary: 'Liveness' }, config: PUBLIC }, async () => ({
    status: 'ok',
  }));
  app.get('/health', { schema: { tags: ['health'], summary: 'Health' }, config: PUBLIC }, async () => ({
    status: 'ok',
  }));
  app.get('/ready', { schema: { tags: ['health'], summary: 'Readiness' }, config: PUBLIC }, async (_request, reply) => {
    if (options.isShuttingDown()) return reply.code(503).send({ status: 'shutting_down' });
    return { status: 'ready' };
  });
  app.get('/server_info', { schema: { tags: ['health'], summary: 'Server information' }, config: PUBLIC }, async () =>
    info(),
  );
}
