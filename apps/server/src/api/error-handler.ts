import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ServerError } from '../errors.js';
import { agentErrorAnswer, errorStatus } from './agent-error-status.js';
import { exceptionText } from './exception-text.js';
import { sendNotFound } from './router-refusal.js';

const CONTEXT_LOC: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * Refusals of the server's own whose body names the code too: a client tells them from other answers of the same
 * status by it (a 409 of a deleted workspace root is no conflict a retry resolves).
 */
const CODED_SERVER_ERRORS: ReadonlySet<string> = new Set(['git_workspace_gone', 'workspace_gone']);

/** The error itself or the first ServerError in its `cause` chain (a store refusal wrapped by the agent). */
function serverErrorIn(error: unknown): ServerError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (ServerError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The reference's error shapes (§11.1): 422 `{detail: [{type, loc, msg}]}` for validation (FastAPI's
 * layout), `{detail: "..."}` for HTTP errors, and 500 `{detail, exception, error_id}` for anything
 * unexpected, which is logged with the same error_id.
 */
export interface ErrorHandlerOptions {
  /** True for a conversation being deleted or deleted: a late request's failure on it is a 409, not a 500. */
  conversationGone?: (id: string) => boolean;
  /**
   * The `exception` of a 500 (the failed request's conversation id, if any): the server's, with its paths and secrets
   * hidden. Default: `exceptionText` with every absolute path hidden and no secret known.
   */
  describeException?: (error: unknown, conversationId: string | undefined) => Promise<string>;
}

export function installErrorHandlers(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  // Unknown routes say nothing about the request or the server (no echo of the path, no route list).
  // On a protocol face's path, in the face's shape (a 405 where its endpoint takes another method).
  app.setNotFoundHandler((request, reply) => {
    void sendNotFound(app, request, reply);
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
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
    const serverError = serverErrorIn(error);
    if (serverError !== undefined) {
      const status = errorStatus(serverError) ?? 500;
      if (status === 422) {
        const loc = (serverError as { loc?: readonly string[] }).loc ?? ['body'];
        return reply.code(422).send({ detail: [{ type: 'value_error', loc, msg: serverError.message }] });
      }
      if (status < 500) {
        const code = CODED_SERVER_ERRORS.has(serverError.code) ? { code: serverError.code } : {};
        return reply.code(status).send({ detail: serverError.message, ...code });
      }
      // No sandbox and no --unsandboxed: the operator must act; the message names the flag.
      if (serverError.code === 'sandbox_required') {
        return reply.code(503).send({ detail: serverError.message, code: serverError.code });
      }
    }
    const agent = agentErrorAnswer(error);
    if (agent !== undefined) {
      if (agent.llm === true) request.log.warn({ err: error }, 'LLM call failed');
      const detail = agent.detail ?? error.message;
      if (agent.status === 422) {
        return reply.code(422).send({ detail: [{ type: 'value_error', loc: agent.loc ?? ['body'], msg: detail }] });
      }
      return reply.code(agent.status).send(agent.withCode === true ? { detail, code: error.code } : { detail });
    }
    // A NUL byte that got past a route's schema into a file system call: the request's fault, never a 500.
    const nodeCode = (error as { code?: unknown }).code;
    if (
      (nodeCode === 'ERR_INVALID_ARG_VALUE' || nodeCode === 'ERR_INVALID_ARG_TYPE') &&
      /null bytes/i.test(String(error.message))
    ) {
      request.log.warn({ err: error }, 'a path with a NUL byte reached the file system');
      return reply.code(400).send({ detail: 'A path in the request contains a NUL byte' });
    }
    const status = errorStatus(error);
    if (status !== undefined && status < 500) {
      // Fastify's own: 413 body too large, 415 media type, 400 empty body, ...
      return reply.code(status).send({ detail: error.message });
    }
    const conversationId = (request.params as { conversation_id?: unknown } | undefined)?.conversation_id;
    if (typeof conversationId === 'string' && options.conversationGone?.(conversationId) === true) {
      request.log.info({ err: error, conversationId }, 'request failed: the conversation was deleted meanwhile');
      return reply.code(409).send({ detail: `Conversation ${conversationId} was deleted` });
    }
    const errorId = randomBytes(16).toString('hex');
    request.log.error({ err: error, error_id: errorId }, 'unhandled error');
    const id = typeof conversationId === 'string' ? conversationId : undefined;
    const describe = options.describeException ?? ((thrown: unknown) => exceptionText(thrown));
    // A describer that fails still leaves the client an answer, naming nothing of the server's.
    const exception = await describe(error, id).catch(() => 'Error');
    return reply.code(500).send({ detail: 'Internal Server Error', exception, error_id: errorId });
  });
}
