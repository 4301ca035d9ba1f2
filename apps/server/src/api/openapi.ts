import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from './response-schemas.js';

/** The security scheme of every non-public operation. */
export const SESSION_API_KEY_SCHEME = 'sessionApiKey';
/** The bearer form of the same key, accepted by the OpenAI-compatible gateway. */
export const BEARER_SCHEME = 'bearerAuth';

/**
 * Registers @fastify/swagger: the OpenAPI 3 document built from the routes' zod schemas (requests and
 * responses), with the `X-Session-API-Key` scheme required by every operation that does not opt out
 * (public routes say `security: []`). Must be registered before the routes.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: '@x/server',
        description:
          'Agent server: conversations, events and event streams (the OpenHands agent-server API). Every ' +
          '`/api` operation needs the `X-Session-API-Key` header when the server is started with session keys; ' +
          'a server started without keys (loopback only) accepts requests without one. Events stream over the ' +
          'WebSocket `/sockets/events/{conversation_id}` (not described here).',
        version,
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        { name: 'conversations', description: 'Start, list, run, pause and delete conversations' },
        { name: 'events', description: 'Send messages, read and search events' },
        { name: 'health', description: 'Liveness, readiness and server information (no key needed)' },
        { name: 'docs', description: 'This document (no key needed)' },
        {
          name: 'openai',
          description:
            'The OpenAI-compatible gateway: an OpenAI client with `baseURL` `<server>/v1` and a session key as its API key talks to the configured agents as models',
        },
      ],
      components: {
        securitySchemes: {
          [SESSION_API_KEY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Session-API-Key',
            description: 'One of the session API keys the server was started with',
          },
          [BEARER_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session API key as a bearer token (the `/v1` gateway, for OpenAI clients)',
          },
        },
      },
      security: [{ [SESSION_API_KEY_SCHEME]: [] }],
    },
    transform: jsonSchemaTransform,
  });
}

const openApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .describe('OpenAPI 3.1 document');

/** `GET /openapi.json`: the document itself (public). */
export function registerOpenApiRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/openapi.json',
    {
      schema: {
        tags: ['docs'],
        summary: 'This OpenAPI document',
        operationId: 'openapiDocument',
        security: [],
        response: {
          200: openApiDocumentSchema,
          ...errorResponses([500]),
        },
      },
      config: { public: true },
    },
    async () => fastify.swagger() as unknown as z.output<typeof openApiDocumentSchema>,
  );
}
