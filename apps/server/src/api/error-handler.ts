import { randomBytes } from 'node:crypto';
import { AgentError } from '@x/agent';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ServerError } from '../errors.js';

const CONTEXT_LOC: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

/**
 * The reference's error shapes (§11.1): 422 `{detail: [{type, loc, msg}]}` for validation (FastAPI's
 * layout), `{detail: "..."}` for HTTP errors, and 500 `{detail, exception, error_id}` for anything
 * unexpected, which is logged with the same error_id.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ detail: `Not Found: ${request.method} ${request.url.split('?')[0]}` });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = (error as { validationContext?: string }).validationContext ?? 'body';
      const detail = error.validation.map((issue) => ({
        type: issue.keyword,
        loc: [CONTEXT_LOC[context] ?? context, ...issue.instancePath.split('/').filter((part) => part !== '')],
        msg: issue.message ?? 'invalid value',
      }));
      // A malformed id in the path is refused like an unknown resource would be, before storage is touched.
      if (context === 'params') {
        return reply.code(400).send({
          detail: `Invalid path parameter: ${detail.map((d) => `${d.loc.slice(1).join('.')}: ${d.msg}`).join('; ')}`,
        });
      }
      return reply.code(422).send({ detail });
    }
    if (ServerError.isInstance(error)) {
      const status = statusOf(error) ?? 500;
      if (status === 422) {
        return reply.code(422).send({ detail: [{ type: 'value_error', loc: ['body'], msg: error.message }] });
      }
      if (status < 500) return reply.code(status).send({ detail: error.message });
    }
    // Subclass isInstance checks only the package marker, so agent errors are told apart by code.
    if (AgentError.isInstance(error)) {
      switch (error.code) {
        case 'conversation_running':
          return reply.code(409).send({ detail: 'Conversation already running. Wait for completion or pause first.' });
        case 'no_condenser':
          return reply.code(400).send({ detail: error.message });
        case 'invalid_confirmation_policy':
        case 'invalid_secrets':
          return reply.code(422).send({ detail: [{ type: 'value_error', loc: ['body'], msg: error.message }] });
      }
    }
    const status = AgentError.isInstance(error) ? undefined : statusOf(error);
    if (status !== undefined && status < 500) {
      // Fastify's own: 413 body too large, 415 media type, 400 empty body, ...
      return reply.code(status).send({ detail: error.message });
    }
    const errorId = randomBytes(16).toString('hex');
    request.log.error({ err: error, error_id: errorId }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error', exception: String(error), error_id: errorId });
  });
}
