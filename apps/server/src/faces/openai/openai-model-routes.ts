import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientText } from '../../internal/client-text.js';
import { OpenAiGatewayError } from './openai-error.js';
import { errorSchemas, gatewayErrorHandler, gatewayRouteConfig, modelNotFound, security } from './openai-http.js';
import { sendRequestId } from './request-id.js';

const modelSchema = z
  .object({ id: z.string(), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })
  .describe('A model (configured agent) a chat completion can name');
const modelListSchema = z
  .object({ object: z.literal('list'), data: z.array(modelSchema) })
  .describe('The models (configured agents) a chat completion can name');

const modelOf = (id: string) => ({ id, object: 'model' as const, created: 0, owned_by: 'x' });

/**
 * `GET /v1/models` and `GET /v1/models/{model}` (the configured agents), and OpenAI's 404 for every other `/v1`
 * path (`/v1/embeddings`, `/v1/completions`, ...), so an SDK call the gateway does not serve fails as a `NotFoundError`
 * that says so, not as a bare 404.
 */
export function registerModelRoutes(app: FastifyInstance, modelIds: readonly string[]): void {
  const shared = { config: gatewayRouteConfig, onSend: sendRequestId, errorHandler: gatewayErrorHandler };
  app.get(
    '/v1/models',
    {
      ...shared,
      schema: {
        tags: ['openai'],
        summary: 'The models (configured agents) of the OpenAI-compatible gateway',
        operationId: 'openaiListModels',
        security,
        response: { 200: modelListSchema, ...errorSchemas },
      },
    },
    async () => ({ object: 'list' as const, data: modelIds.map(modelOf) }),
  );

  app.get(
    '/v1/models/:model',
    {
      ...shared,
      schema: {
        tags: ['openai'],
        summary: 'One model (configured agent) of the OpenAI-compatible gateway',
        operationId: 'openaiRetrieveModel',
        security,
        params: z.object({ model: z.string().min(1) }),
        response: { 200: modelSchema, ...errorSchemas },
      },
    },
    async (request) => {
      const { model } = request.params as { model: string };
      if (!modelIds.includes(model)) throw modelNotFound(model, modelIds);
      return modelOf(model);
    },
  );

  // OpenAI's 404 is answered in `onRequest`, after the key check and before the body is read: an upload
  // (`files.create` sends multipart) or a body that is not JSON, malformed or too large would otherwise be refused for
  // its body (415, 400, 413), and the SDK would raise a bare APIError instead of a NotFoundError naming the path.
  const unknownUrl = async (request: FastifyRequest): Promise<never> => {
    const path = request.url.split('?')[0] ?? request.url;
    throw new OpenAiGatewayError(
      { status: 404, type: 'invalid_request_error', code: 'unknown_url' },
      `Invalid URL (${clientText(request.method)} ${clientText(path)}); the gateway serves GET /v1/models, GET /v1/models/{model}, POST /v1/chat/completions, POST /v1/responses and GET /v1/responses/{response_id}`,
    );
  };
  app.route({
    // Every method: no path under the gateway's prefix falls to the server's `{detail}` 404.
    method: app.supportedMethods,
    url: '/v1/*',
    ...shared,
    schema: { hide: true },
    onRequest: unknownUrl,
    // Never reached (the hook has answered), but Fastify requires a handler.
    handler: unknownUrl,
  });
}
