import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientText } from '../../internal/client-text.js';
import type { PublicRouteConfig } from '../../security/route-auth.js';
import { invalidRequest, OpenAiGatewayError, openAiErrorBodySchema, openAiErrorOf } from './openai-error.js';

const errorMeaning = {
  400: 'Malformed JSON, a body that is not a chat or responses request, no user message, a bad conversation header, a parameter the gateway cannot honour (`unsupported_value`, `unsupported_parameter`)',
  401: 'No session key, or a wrong one (as `Authorization: Bearer` or `X-Session-API-Key`)',
  404: 'The model is not one of `GET /v1/models`, a response id the server does not hold, or the path is not one the gateway serves',
  409: 'The conversation is running, or its run stopped for a confirmation or a pause',
  413: 'Request body too large',
  415: 'The body is not JSON',
  500: "The agent's run ended in error (or stuck)",
  '4xx': 'Any other client error',
  '5xx': 'Any other server error',
} as const;

/**
 * The server's own guards (Host/Origin, body limits) answer before the gateway's handler, in the REST API's
 * `{detail}` shape: both shapes are declared, so such an answer is sent as it is instead of failing to serialize.
 */
const guardErrorSchema = z.object({ detail: z.unknown() });

/** The error responses of every gateway route, for its OpenAPI schema. */
export const errorSchemas = Object.fromEntries(
  Object.entries(errorMeaning).map(([status, meaning]) => [
    status,
    z.union([openAiErrorBodySchema, guardErrorSchema]).describe(meaning),
  ]),
);

/** OpenAI clients send the key as `Authorization: Bearer`; the REST header is accepted too (see route-auth). */
export const security: Array<Record<string, string[]>> = [{ sessionApiKey: [] }, { bearerAuth: [] }];

/** Every gateway route takes the session key as OpenAI clients send it, `Authorization: Bearer` (see route-auth). */
export const gatewayRouteConfig: PublicRouteConfig = { bearerAuth: 'openai' };

export function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const { status, body } = openAiErrorOf(error);
  // The openai SDK retries 409 and 5xx by default, which would run the agent again.
  return reply.code(status).header('x-should-retry', 'false').send(body);
}

/** 404 `model_not_found` for a model that is not one of `GET /v1/models`, naming those. */
export function modelNotFound(model: string, modelIds: readonly string[]): OpenAiGatewayError {
  return new OpenAiGatewayError(
    { status: 404, type: 'invalid_request_error', code: 'model_not_found', param: 'model' },
    `The model '${clientText(model)}' does not exist: GET /v1/models lists ${modelIds.length === 0 ? 'none (the server has no openaiModels configured)' : modelIds.join(', ')}`,
  );
}

/**
 * A schema error's instance path as OpenAI names a field in `param`, items by their index in brackets (`/messages/0/role`
 * is `messages[0].role`, as the face's own errors and OpenAI's say it); null for the body itself. The zod type provider
 * joins the path with `/` unescaped, so a key holding a `/` reads as two (the path itself is not kept).
 */
function paramOf(instancePath: string | undefined): string | null {
  const segments = (instancePath ?? '').split('/').slice(1);
  const param = segments.reduce(
    (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`),
    '',
  );
  return param === '' ? null : param;
}

/** What a schema error's message calls the part of the request that failed (Fastify's `validationContext`). */
const PART_NAMES: Readonly<Record<string, string>> = {
  body: 'request body',
  params: 'path parameter',
  querystring: 'query parameter',
  headers: 'header',
};

/**
 * The error handler of the gateway's routes: malformed JSON, a body, path or query that fails its schema, a bad header,
 * all answered in OpenAI's error body (the offending field in `param`), never in Fastify's.
 */
export function gatewayErrorHandler(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { validation, validationContext } = error as {
    validation?: Array<{ instancePath?: string; message?: string }>;
    validationContext?: string;
  };
  if (validation !== undefined) {
    const first = validation[0];
    const param = paramOf(first?.instancePath);
    const part = PART_NAMES[validationContext ?? 'body'] ?? 'request';
    return sendError(
      reply,
      invalidRequest(`Invalid ${part}: ${param ?? 'body'}: ${first?.message ?? error.message}`, param),
    );
  }
  const refused = bodyRefusal(error, request);
  return sendError(reply, refused ?? error);
}

/**
 * Fastify's refusal of a body it never parsed, with a code of OpenAI's kind (`request_too_large`,
 * `unsupported_media_type`) and a message saying what to change, not Fastify's internal `FST_ERR_CTP_*` code.
 */
function bodyRefusal(error: Error, request: FastifyRequest): OpenAiGatewayError | undefined {
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_ERR_CTP_')) return undefined;
  if (statusCode === 413) {
    return new OpenAiGatewayError(
      { status: 413, type: 'invalid_request_error', code: 'request_too_large' },
      `The request body is larger than this server's limit of ${request.routeOptions.bodyLimit} bytes`,
    );
  }
  if (statusCode === 415) {
    return new OpenAiGatewayError(
      { status: 415, type: 'invalid_request_error', code: 'unsupported_media_type' },
      'The request body must be JSON (Content-Type: application/json)',
    );
  }
  return undefined;
}
